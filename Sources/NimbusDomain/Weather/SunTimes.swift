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
    /// Sun times at `coordinate` on the local calendar day containing `date` in `timeZone`.
    public static func sunTimes(on date: Date, at coordinate: Coordinate, timeZone: TimeZone) -> SunTimes {
        var local = Calendar(identifier: .gregorian)
        local.timeZone = timeZone
        let day = local.dateComponents([.year, .month, .day], from: date)
        guard let noonLocal = local.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))
        else { return SunTimes(kind: .allNight, sunrise: nil, sunset: nil, dayLength: 0) }
        // The UTC date whose solar noon falls nearest local noon.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let utcDay = utc.dateComponents([.year, .month, .day], from: noonLocal)
        guard let midnightUTC = utc.date(from: utcDay) else {
            return SunTimes(kind: .allNight, sunrise: nil, sunset: nil, dayLength: 0)
        }
        let jd0 = midnightUTC.timeIntervalSince1970 / 86400 + 2440587.5

        func event(_ rising: Bool) -> (minutes: Double?, cosHA: Double) {
            // First guess at solar noon, then refine at the event's own time.
            var minutes = 720 - 4 * coordinate.longitude
            var cosHA = 0.0
            for _ in 0..<3 {
                let s = solar(jd: jd0 + minutes / 1440)
                let lat = coordinate.latitude * .pi / 180
                cosHA = (cos(90.833 * .pi / 180) - sin(lat) * sin(s.declination)) / (cos(lat) * cos(s.declination))
                guard abs(cosHA) <= 1 else { return (nil, cosHA) }
                let ha = acos(cosHA) * 180 / .pi
                minutes = 720 - 4 * (coordinate.longitude + (rising ? ha : -ha)) - s.equationOfTime
            }
            return (minutes, cosHA)
        }

        let rise = event(true), set = event(false)
        guard let riseMinutes = rise.minutes, let setMinutes = set.minutes else {
            let cosHA = rise.minutes == nil ? rise.cosHA : set.cosHA
            return cosHA < -1
                ? SunTimes(kind: .allDay, sunrise: nil, sunset: nil, dayLength: 86400)
                : SunTimes(kind: .allNight, sunrise: nil, sunset: nil, dayLength: 0)
        }
        let sunrise = midnightUTC.addingTimeInterval(riseMinutes * 60)
        let sunset = midnightUTC.addingTimeInterval(setMinutes * 60)
        return SunTimes(kind: .normal, sunrise: sunrise, sunset: sunset, dayLength: sunset.timeIntervalSince(sunrise))
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
