import Foundation

/// Sunrise, sunset and day length for one place on one local day, computed offline.
public struct SunTimes: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// The sun rises and sets.
        case normal
        /// The sun stays up all day (polar day).
        case allDay
        /// The sun stays down all day (polar night).
        case allNight
    }

    public let kind: Kind
    public let sunrise: Date?
    public let sunset: Date?
    /// Time between sunrise and sunset (24 h for polar day, 0 for polar night).
    public let dayLength: TimeInterval

    public init(kind: Kind, sunrise: Date?, sunset: Date?, dayLength: TimeInterval) {
        self.kind = kind
        self.sunrise = sunrise
        self.sunset = sunset
        self.dayLength = dayLength
    }
}

/// The NOAA solar calculator (Meeus' low-precision formulae): sunrise and sunset to within a
/// minute or two away from the poles, with the standard 0.833° for refraction and the sun's radius.
public enum SolarCalculator {
    /// Sun times at `coordinate` on the local date `date` falls on in `zone`.
    public static func sunTimes(on date: Date, at coordinate: Coordinate, zone: Zone) -> SunTimes {
        sunTimes(on: zone.localDate(at: date), at: coordinate, zone: zone)
    }

    /// Sun times at `coordinate` on the local date `day` in `zone`, whatever the zone's distance from
    /// UTC (UTC−12 … UTC+14) and from the sun's own time: the sunrise that falls between the date's
    /// midnights, and the sunset that ends that daylight (after midnight, near the polar circles in
    /// summer: Reykjavík's 21 June sunset is at 00:04 on the 22nd). A date with no sunrise (the sun
    /// rose the day before and sets on it) has only its sunset; one with neither is polar day or night.
    public static func sunTimes(on day: LocalDate, at coordinate: Coordinate, zone: Zone) -> SunTimes {
        let start = zone.startOfDay(day), end = zone.startOfDay(day.adding(days: 1))
        guard coordinate.isValid, end > start else { return SunTimes(kind: .allNight, sunrise: nil, sunset: nil, dayLength: 0) }
        // The solar days (one per UTC date) whose events can fall in the local day or just after:
        // the local day lies within UTC's day before its start and the day after its end.
        let first = Zone.utc.localDate(at: start).adding(days: -1), last = Zone.utc.localDate(at: end).adding(days: 1)
        var risings: [Date] = [], settings: [Date] = []
        var n = first
        while n <= last {
            let midnight = Date(timeIntervalSince1970: TimeInterval(n.daysSince1970) * 86400)
            let jd0 = TimeInterval(n.daysSince1970) + 2440587.5
            if let minutes = event(rising: true, jd0: jd0, at: coordinate).minutes {
                risings.append(midnight.addingTimeInterval(minutes * 60))
            }
            if let minutes = event(rising: false, jd0: jd0, at: coordinate).minutes {
                settings.append(midnight.addingTimeInterval(minutes * 60))
            }
            n = n.adding(days: 1)
        }
        let sunrise = risings.first { $0 >= start && $0 < end }
        let sunset = sunrise.map { rise in settings.first { $0 > rise && $0 < rise.addingTimeInterval(86400) } }
            ?? settings.first { $0 >= start && $0 < end }
        // The day's length is that of the solar day whose noon is nearest the local day's middle.
        let middle = start.addingTimeInterval(end.timeIntervalSince(start) / 2)
        let solarDay = Zone.utc.localDate(at: middle.addingTimeInterval(coordinate.longitude / 15 * 3600))
        let jd = TimeInterval(solarDay.daysSince1970) + 2440587.5
        let rise = event(rising: true, jd0: jd, at: coordinate), set = event(rising: false, jd0: jd, at: coordinate)
        guard sunrise != nil || sunset != nil else {
            // Neither in the day: the sun stays up (polar day) or down (polar night).
            let cosHA = rise.minutes == nil ? rise.cosHA : set.cosHA
            return cosHA < 0
                ? SunTimes(kind: .allDay, sunrise: nil, sunset: nil, dayLength: 86400)
                : SunTimes(kind: .allNight, sunrise: nil, sunset: nil, dayLength: 0)
        }
        let length: TimeInterval
        if let r = rise.minutes, let s = set.minutes {
            length = (s - r) * 60
        } else if let sunrise, let sunset, sunset > sunrise {
            length = sunset.timeIntervalSince(sunrise)
        } else {
            length = rise.cosHA < -1 || set.cosHA < -1 ? 86400 : 0
        }
        return SunTimes(kind: .normal, sunrise: sunrise, sunset: sunset, dayLength: max(0, min(86400, length)))
    }

    /// Minutes after the UTC midnight at Julian day `jd0` of the sunrise (or sunset) of that solar
    /// day, nil when the sun does not cross the horizon; and the cosine of the hour angle that says
    /// which way (below −1: it stays up; above 1: it stays down).
    static func event(rising: Bool, jd0: Double, at coordinate: Coordinate,
                      zenith: Double = 90.833) -> (minutes: Double?, cosHA: Double) {
        // First guess at solar noon, then refine at the event's own time.
        var minutes = 720 - 4 * coordinate.longitude
        var cosHA = 0.0
        for _ in 0..<3 {
            let s = solar(jd: jd0 + minutes / 1440)
            let lat = coordinate.latitude * .pi / 180
            cosHA = (cos(zenith * .pi / 180) - sin(lat) * sin(s.declination)) / (cos(lat) * cos(s.declination))
            guard abs(cosHA) <= 1 else { return (nil, cosHA) }
            let ha = acos(cosHA) * 180 / .pi
            minutes = 720 - 4 * (coordinate.longitude + (rising ? ha : -ha)) - s.equationOfTime
        }
        return (minutes, cosHA)
    }

    /// Civil dawn and dusk (the sun's centre 6° below the horizon) at `coordinate` on the local date
    /// `day` in `zone`: the dawn that falls between the date's midnights and the dusk that ends that
    /// twilight; nil where the sun never gets that low or never that high (white nights, polar night).
    public static func civilTwilight(on day: LocalDate, at coordinate: Coordinate, zone: Zone) -> (dawn: Date?, dusk: Date?) {
        let start = zone.startOfDay(day), end = zone.startOfDay(day.adding(days: 1))
        guard coordinate.isValid, end > start else { return (nil, nil) }
        var dawns: [Date] = [], dusks: [Date] = []
        var n = Zone.utc.localDate(at: start).adding(days: -1)
        let last = Zone.utc.localDate(at: end).adding(days: 1)
        while n <= last {
            let midnight = Date(timeIntervalSince1970: TimeInterval(n.daysSince1970) * 86400)
            let jd0 = TimeInterval(n.daysSince1970) + 2440587.5
            if let minutes = event(rising: true, jd0: jd0, at: coordinate, zenith: 96).minutes {
                dawns.append(midnight.addingTimeInterval(minutes * 60))
            }
            if let minutes = event(rising: false, jd0: jd0, at: coordinate, zenith: 96).minutes {
                dusks.append(midnight.addingTimeInterval(minutes * 60))
            }
            n = n.adding(days: 1)
        }
        let dawn = dawns.first { $0 >= start && $0 < end }
        let dusk = dawn.map { d in dusks.first { $0 > d && $0 < d.addingTimeInterval(86400) } } ?? dusks.first { $0 >= start && $0 < end }
        return (dawn, dusk)
    }

    /// Solar noon (the sun highest, crossing the meridian) at `coordinate` on the local date `day` in `zone`.
    public static func solarNoon(on day: LocalDate, at coordinate: Coordinate, zone: Zone) -> Date {
        let start = zone.startOfDay(day), end = zone.startOfDay(day.adding(days: 1))
        let middle = start.addingTimeInterval(end.timeIntervalSince(start) / 2)
        // The UTC date of the solar day whose noon is nearest the local day's middle.
        let n = Zone.utc.localDate(at: middle.addingTimeInterval(coordinate.longitude / 15 * 3600))
        let midnight = Date(timeIntervalSince1970: TimeInterval(n.daysSince1970) * 86400)
        let jd0 = TimeInterval(n.daysSince1970) + 2440587.5
        var minutes = 720 - 4 * coordinate.longitude
        for _ in 0..<3 { minutes = 720 - 4 * coordinate.longitude - solar(jd: jd0 + minutes / 1440).equationOfTime }
        return midnight.addingTimeInterval(minutes * 60)
    }

    /// Declination (radians) and equation of time (minutes) at Julian day `jd`.
    static func solar(jd: Double) -> (declination: Double, equationOfTime: Double) {
        let t = (jd - 2451545) / 36525
        let rad = Double.pi / 180
        let l0 = (280.46646 + t * (36000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let m = 357.52911 + t * (35999.05029 - 0.0001537 * t)
        let e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let c = sin(m * rad) * (1.914602 - t * (0.004817 + 0.000014 * t))
            + sin(2 * m * rad) * (0.019993 - 0.000101 * t)
            + sin(3 * m * rad) * 0.000289
        let trueLongitude = l0 + c
        let omega = 125.04 - 1934.136 * t
        let lambda = trueLongitude - 0.00569 - 0.00478 * sin(omega * rad)
        let seconds = 21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))
        let obliquity0 = 23 + (26 + seconds / 60) / 60
        let obliquity = obliquity0 + 0.00256 * cos(omega * rad)
        let declination = asin(sin(obliquity * rad) * sin(lambda * rad))
        let y = pow(tan(obliquity * rad / 2), 2)
        let eot = y * sin(2 * l0 * rad) - 2 * e * sin(m * rad) + 4 * e * y * sin(m * rad) * cos(2 * l0 * rad)
            - 0.5 * y * y * sin(4 * l0 * rad) - 1.25 * e * e * sin(2 * m * rad)
        return (declination, 4 * eot / rad)
    }
}
