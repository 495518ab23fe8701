import Foundation

/// The Moon's phase, computed offline: Jean Meeus, *Astronomical Algorithms* (2nd ed.), chapter 48
/// (the illuminated fraction, from the Moon's elongation) and chapter 49 (the instants of new and
/// full moon, with the periodic terms; the planetary terms, under a minute, are left out). The
/// instants are good to a few minutes against published tables.
public enum MoonPhase: Int, CaseIterable, Sendable {
    case new, waxingCrescent, firstQuarter, waxingGibbous, full, waningGibbous, lastQuarter, waningCrescent
}

/// The Moon at one instant, and the next new and full moons after it.
public struct MoonState: Equatable, Sendable {
    public let phase: MoonPhase
    /// The lit fraction of the disc, 0…1.
    public let illumination: Double
    /// Degrees from the Sun along the ecliptic, 0…360 (0 new, 180 full): waxing below 180.
    public let elongation: Double
    public let nextNew: Date
    public let nextFull: Date

    public var isWaxing: Bool { elongation < 180 }

    /// A symbol of the Moon as it looks from `latitude`: the lit side is on the right while it
    /// waxes in the northern hemisphere, on the left in the southern one.
    public func symbol(latitude: Double) -> String {
        let north = ["🌑", "🌒", "🌓", "🌔", "🌕", "🌖", "🌗", "🌘"]
        let index = phase.rawValue
        guard latitude < 0, index != 0, index != 4 else { return north[index] }
        return north[8 - index] // the mirror image: a waxing crescent looks like the north's waning one
    }
}

public enum MoonCalculator {
    /// Julian day of the Unix epoch.
    static let unixEpochJD = 2_440_587.5
    /// Terrestrial minus universal time around 2026 (ΔT, seconds).
    static let deltaT = 69.0
    public static let synodicMonth = 29.530588861

    public static func state(at date: Date) -> MoonState {
        let jd = date.timeIntervalSince1970 / 86_400 + unixEpochJD
        let elongation = elongation(jd: jd)
        let illumination = illuminatedFraction(jd: jd)
        return MoonState(phase: phase(elongation: elongation), illumination: illumination, elongation: elongation,
                         nextNew: next(.new, after: date), nextFull: next(.full, after: date))
    }

    /// The eight phases as equal 45° sectors of elongation, each centred on its event.
    static func phase(elongation e: Double) -> MoonPhase {
        let sector = Int(((e + 22.5).truncatingRemainder(dividingBy: 360)) / 45)
        return MoonPhase(rawValue: min(7, max(0, sector))) ?? .new
    }

    enum Event { case new, full }

    /// The first new or full moon after `date`.
    public static func nextNew(after date: Date) -> Date { next(.new, after: date) }
    public static func nextFull(after date: Date) -> Date { next(.full, after: date) }

    static func next(_ event: Event, after date: Date) -> Date {
        let years = date.timeIntervalSince1970 / (365.25 * 86_400) + 1970
        var k = ((years - 2000) * 12.3685).rounded(.down) - 1
        if event == .full { k += 0.5 }
        while true {
            let instant = self.instant(k: k, event)
            if instant > date { return instant }
            k += 1
        }
    }

    /// Meeus 49: the instant of the phase numbered `k` (integer: new, +0.5: full), in UT.
    static func instant(k: Double, _ event: Event) -> Date {
        let t = k / 1236.85
        let t2 = t * t, t3 = t2 * t, t4 = t3 * t
        var jde = 2_451_550.09766 + synodicMonth * k + 0.00015437 * t2 - 0.000000150 * t3 + 0.00000000073 * t4
        let e = 1 - 0.002516 * t - 0.0000074 * t2
        let m = radians(2.5534 + 29.10535670 * k - 0.0000014 * t2 - 0.00000011 * t3)
        let mp = radians(201.5643 + 385.81693528 * k + 0.0107582 * t2 + 0.00001238 * t3 - 0.000000058 * t4)
        let f = radians(160.7108 + 390.67050284 * k - 0.0016118 * t2 - 0.00000227 * t3 + 0.000000011 * t4)
        let omega = radians(124.7746 - 1.56375588 * k + 0.0020672 * t2 + 0.00000215 * t3)
        let (a, b, c) = event == .new ? (-0.40720, 0.17241, 0.01608) : (-0.40614, 0.17302, 0.01614)
        let (d, g) = event == .new ? (0.01039, 0.00739) : (0.01043, 0.00734)
        let h = event == .new ? 0.00208 : 0.00209
        jde += a * sin(mp) + b * e * sin(m) + c * sin(2 * mp) + d * sin(2 * f) + g * e * sin(mp - m)
            - 0.00514 * e * sin(mp + m) + h * e * e * sin(2 * m) - 0.00111 * sin(mp - 2 * f)
            - 0.00057 * sin(mp + 2 * f) + 0.00056 * e * sin(2 * mp + m) - 0.00042 * sin(3 * mp)
            + 0.00042 * e * sin(m + 2 * f) + 0.00038 * e * sin(m - 2 * f) - 0.00024 * e * sin(2 * mp - m)
            - 0.00017 * sin(omega) - 0.00007 * sin(mp + 2 * m) + 0.00004 * sin(2 * mp - 2 * f)
            + 0.00004 * sin(3 * m) + 0.00003 * sin(mp + m - 2 * f) + 0.00003 * sin(2 * mp + 2 * f)
            - 0.00003 * sin(mp + m + 2 * f) + 0.00003 * sin(mp - m + 2 * f) - 0.00002 * sin(mp - m - 2 * f)
            - 0.00002 * sin(3 * mp + m) + 0.00002 * sin(4 * mp)
        let seconds = (jde - unixEpochJD) * 86_400 - deltaT
        return Date(timeIntervalSince1970: seconds)
    }

    /// Meeus 47/48 (low precision): the Moon's elongation from the Sun, in degrees 0…360.
    static func elongation(jd: Double) -> Double {
        let t = (jd - 2_451_545) / 36_525
        // Mean elongation, then the largest periodic terms of the Moon's and the Sun's longitudes.
        let d = 297.8501921 + 445_267.1114034 * t
        let m = radians(357.5291092 + 35_999.0502909 * t)
        let mp = radians(134.9633964 + 477_198.8675055 * t)
        let f = radians(93.2720950 + 483_202.0175233 * t)
        let dr = radians(d)
        let moon = 6.289 * sin(mp) + 1.274 * sin(2 * dr - mp) + 0.658 * sin(2 * dr) + 0.214 * sin(2 * mp)
            - 0.186 * sin(m) - 0.114 * sin(2 * f)
        let sun = 1.915 * sin(m) + 0.020 * sin(2 * m)
        let value = (d + moon - sun).truncatingRemainder(dividingBy: 360)
        return value < 0 ? value + 360 : value
    }

    /// Meeus 48.4: the illuminated fraction from the phase angle.
    static func illuminatedFraction(jd: Double) -> Double {
        let t = (jd - 2_451_545) / 36_525
        let d = radians(297.8501921 + 445_267.1114034 * t)
        let m = radians(357.5291092 + 35_999.0502909 * t)
        let mp = radians(134.9633964 + 477_198.8675055 * t)
        let i = 180 - degrees(d) - 6.289 * sin(mp) + 2.100 * sin(m) - 1.274 * sin(2 * d - mp)
            - 0.658 * sin(2 * d) - 0.214 * sin(2 * mp) - 0.110 * sin(d)
        return (1 + cos(radians(i))) / 2
    }

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    private static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
