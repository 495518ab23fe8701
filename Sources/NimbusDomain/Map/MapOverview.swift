import Foundation

/// One view that shows a set of places at once: the closest zoom (up to `maxZoom`) at which every
/// place falls inside a view of `size` centred on one of them, with a cell to spare at each edge.
///
/// The view depends on the set alone (not its order, not which place is selected), so a list beside
/// it can move its selection and the map changes only where the selected place's mark is.
public enum MapOverview {
    /// The view, centred on the place nearest the middle of the set (nearest the middle of the
    /// shortest arc of longitudes, which may cross the 180th meridian) and panned by quarters of the
    /// view towards the middle; the world zoom when no closer one holds them all. Nil for no places
    /// or an empty size.
    public static func request(for cities: [City], size: MapSize, style: MapStyle = .braille,
                               maxZoom: MapZoom = .country) -> MapRequest? {
        let places = cities.filter { $0.coordinate.isValid }
        guard size.cols > 0, size.rows > 0, let (anchor, middle) = centremost(places) else { return nil }
        var level = maxZoom.level
        while level > MapZoom.world.level {
            let request = request(at: anchor, towards: middle, size: size, style: style, zoom: MapZoom(level))
            if fits(places, request) { return request }
            level -= 1
        }
        return request(at: anchor, towards: middle, size: size, style: style, zoom: .world)
    }

    /// The view at `zoom` centred on `anchor` and panned by quarters of the view as near `middle` as
    /// they take it (the world zoom is not panned).
    static func request(at anchor: City, towards middle: (longitude: Double, y: Double), size: MapSize,
                        style: MapStyle, zoom: MapZoom) -> MapRequest {
        guard zoom > .world else { return MapRequest(city: anchor, zoom: zoom, size: size, style: style) }
        let plain = MapProjection(MapRequest(city: anchor, zoom: zoom, size: size, style: style))
        let width = Double(size.cols * style.dotsAcross), height = Double(size.rows * style.dotsDown)
        var dLon = middle.longitude - normalised(anchor.longitude)
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let x = dLon / plain.step / (width / 4)
        let y = (MapProjection.mercator(anchor.latitude) - middle.y) / plain.verticalStep / (height / 4)
        guard x.isFinite, y.isFinite else { return MapRequest(city: anchor, zoom: zoom, size: size, style: style) }
        let offset = MapOffset(x: Int(x.rounded()), y: Int(y.rounded()))
        return MapRequest(city: anchor, zoom: zoom, size: size, style: style, offset: offset)
    }

    /// Every place's dot lies inside the view, not in its outermost cells.
    static func fits(_ places: [City], _ request: MapRequest) -> Bool {
        let projection = MapProjection(request)
        let style = request.key.style
        let width = request.key.size.cols * style.dotsAcross, height = request.key.size.rows * style.dotsDown
        // A view of one or two cells has no inner part: the place itself is enough.
        let marginX = width > 2 * style.dotsAcross ? style.dotsAcross : 0
        let marginY = height > 2 * style.dotsDown ? style.dotsDown : 0
        return places.allSatisfy { place in
            guard let dot = projection.dot(of: place.coordinate) else { return false }
            return dot.x >= marginX && dot.x < width - marginX && dot.y >= marginY && dot.y < height - marginY
        }
    }

    /// The place nearest the middle of the set, in Mercator degrees (ties: the lowest id), and the
    /// middle: of the shortest arc of longitudes, and of the Mercator heights.
    static func centremost(_ places: [City]) -> (City, middle: (longitude: Double, y: Double))? {
        guard !places.isEmpty else { return nil }
        let longitudes = places.map { normalised($0.longitude) }.sorted()
        // The shortest arc holding every longitude leaves out the widest gap between two of them.
        var gapEnd = longitudes[0], widest = longitudes[0] + 360 - longitudes[longitudes.count - 1]
        for i in longitudes.indices.dropFirst() where longitudes[i] - longitudes[i - 1] > widest {
            widest = longitudes[i] - longitudes[i - 1]
            gapEnd = longitudes[i]
        }
        let middleLongitude = normalised(gapEnd + (360 - widest) / 2)
        let ys = places.map { MapProjection.mercator($0.latitude) }
        let middleY = (ys.min()! + ys.max()!) / 2
        func distance(_ city: City) -> Double {
            var dLon = abs(normalised(city.longitude) - middleLongitude)
            if dLon > 180 { dLon = 360 - dLon }
            let dY = MapProjection.mercator(city.latitude) - middleY
            return dLon * dLon + dY * dY
        }
        let anchor = places.min { a, b in
            let da = distance(a), db = distance(b)
            return da != db ? da < db : a.id < b.id
        }!
        return (anchor, (middleLongitude, middleY))
    }

    /// A longitude in [-180, 180).
    static func normalised(_ longitude: Double) -> Double {
        let l = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (l < 0 ? l + 360 : l) - 180
    }
}
