import Foundation

/// What a place's climate allows a normal to be. A normal is the mean of thirty years of daily
/// highs (or lows) over a fortnight of the year, so it lies well inside the records of temperature
/// ever measured at the place's latitude; it changes little from one day of the year to the next;
/// the mean high is above the mean low by less than the widest daily range of any climate; and a
/// day's forecast is not further from it than any day has ever been from its normal. An answer, or a
/// kept copy, that breaks one of these is not believed (69.9 °C by day and −99.9 °C by night, each
/// in the physical range, made "62° below normal").
public enum ClimatePlausibility {
    /// Record lows and highs (°C) by band of latitude, from the WMO's archive of weather and climate
    /// extremes and the national records it cites: the world's highest, 56.7 at Furnace Creek (36°N);
    /// its lowest, −89.2 at Vostok (78°S); north of the Arctic Circle 38.0 (Verkhoyansk) and −69.6
    /// (Klinck, Greenland); the northern mid-latitudes' lowest −67.8 (Oymyakon, 63°N); the southern
    /// hemisphere's highest 50.7 (Oodnadatta, 28°S). The tropics and the southern mid-latitudes,
    /// which have no official lows of their own, get lows colder than their high mountains have seen.
    static let bands: [(latitudes: ClosedRange<Double>, records: ClosedRange<Double>)] = [
        (-90 ... -60, -89.2 ... 19.8),
        (-60 ... -23.5, -45 ... 50.7),
        (-23.5 ... 23.5, -35 ... 56.7),
        (23.5 ... 66.5, -67.8 ... 56.7),
        (66.5 ... 90, -69.6 ... 38.0),
    ]

    /// The record range of temperature at `latitude` (the wider of two bands at their border).
    public static func recordRange(latitude: Double) -> ClosedRange<Double> {
        let matching = bands.filter { $0.latitudes.contains(latitude) }.map(\.records)
        guard let first = matching.first else { return -89.2 ... 56.7 }
        return matching.dropFirst().reduce(first) { min($0.lowerBound, $1.lowerBound) ... max($0.upperBound, $1.upperBound) }
    }

    /// The widest a normal day's range (mean high less mean low) is anywhere: about 25 °C on high
    /// deserts and plateaus.
    public static let widestDailyRange = 35.0
    /// The most a fortnight's mean moves from one day of the year to the next: well under a degree
    /// anywhere; the archive's whole curve is smooth.
    public static let largestDayToDayChange = 5.0
    /// The furthest a day has been from its normal: heat waves and cold outbreaks of 25–30 °C.
    public static let largestAnomaly = 35.0
}

extension ClimateNormals {
    /// Whether these normals can be a climate at `latitude` (`ClimatePlausibility`).
    public func isPlausible(latitude: Double) -> Bool {
        let records = ClimatePlausibility.recordRange(latitude: latitude)
        for (i, day) in days.enumerated() {
            guard records.contains(day.high), records.contains(day.low), day.low <= day.high,
                  day.high - day.low <= ClimatePlausibility.widestDailyRange else { return false }
            let next = days[(i + 1) % days.count]
            guard abs(next.high - day.high) <= ClimatePlausibility.largestDayToDayChange,
                  abs(next.low - day.low) <= ClimatePlausibility.largestDayToDayChange else { return false }
        }
        return true
    }
}

extension DayNormal {
    /// Whether this normal and a day's forecast high and low can both be true.
    public func isPlausible(againstHigh high: Double, low: Double) -> Bool {
        guard high.isFinite, low.isFinite else { return true }
        return abs(high - self.high) <= ClimatePlausibility.largestAnomaly && abs(low - self.low) <= ClimatePlausibility.largestAnomaly
    }
}
