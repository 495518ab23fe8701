import Foundation
import NimbusDomain
import NimbusTerminal

/// `nimbus weather --format`: wttr.in's one-line format. Every code wttr.in has means here what it
/// means there, in the same units and with the same signs and spacing (`%t` `+23°C`, `%h` `64%`,
/// `%w` `→10km/h`, `%p` `0.0mm`), so a status line copied from wttr.in's documentation prints the
/// same line; Nimbus's own codes (`%a` warnings, `%y` yesterday, `%n` the normal, `%q` the air
/// quality index, `%k` a kept copy) use letters wttr.in does not.
///
/// As in wttr.in: an unknown code is printed as written, `\n` is a new line; `%%` is a percent
/// sign. The command line is not a URL: `+` and `%20` are printed as they are.
struct OneLineFormat {
    /// What the codes are filled from: one city's weather now, in metric units as the domain keeps them.
    struct Weather {
        /// `%l`: the city's name as the UI shows it.
        var location: String
        /// `%C`: the sky in words, in the UI's language.
        var condition: String
        var current: CurrentConditions
        /// `%o`: the chance of rain in the current hour (percent).
        var chanceOfRain: Double?
        /// `%u`: the UV index now.
        var uvIndex: Double?
        var imperial: Bool
        var coordinate: Coordinate
        /// The city's zone, for the sun's times and `%T`; `zoneName` is `%Z`.
        var zone: Zone
        var zoneName: String
        var now: Date
        /// Nimbus's own codes, already formatted.
        var extras = Extras()
    }

    /// The values of Nimbus's own codes.
    struct Extras {
        /// `%a`: the most severe warning in force and how many more; empty when none.
        var warnings = ""
        /// `%y`: today against yesterday.
        var yesterday = ""
        /// `%n`: the normal high and low for the date.
        var normal = ""
        /// `%q`: the air quality index of the city's region ("AQI 42", "EAQI 35").
        var airQuality = ""
        /// `%k`: " (cached 3 h ago)" when the forecast is the kept copy.
        var kept = ""
    }

    /// The codes wttr.in documents (its README and share/defs/oneline/oneline.yaml), each with
    /// wttr.in's words and what Nimbus prints: the table `--help` and the man page show.
    static let wttrCodes: [(code: Character, wttr: String, nimbus: String)] = [
        ("c", "Weather condition", "emoji and a space: \"⛅ \""),
        ("C", "Weather condition textual name", "in the UI's language: Partly cloudy"),
        ("x", "Weather condition, plain-text symbol", "m, ///, *"),
        ("h", "Humidity", "64%"),
        ("t", "Temperature (Actual)", "+23°C, -3°F, +0°C"),
        ("f", "Temperature (Feels Like)", "+24°C"),
        ("w", "Wind", "→10km/h (the arrow: where it blows)"),
        ("l", "Location", "Seoul, 서울"),
        ("m", "Moon phase", "🌔 (as seen from the north)"),
        ("M", "Moon day", "11 (days since the new moon)"),
        ("p", "Precipitation (mm/3 hours)", "last hour: 0.0mm, 0.00 in"),
        ("o", "Probability of Precipitation", "60% this hour; empty when none"),
        ("P", "Pressure (hPa)", "1009hPa (at sea level, always hPa)"),
        ("u", "UV index (1-12)", "5 (from the air service)"),
        ("D", "Dawn*", "civil dawn: 05:02:11"),
        ("S", "Sunrise*", "05:31:40"),
        ("z", "Zenith*", "solar noon: 12:34:05"),
        ("s", "Sunset*", "19:36:29"),
        ("d", "Dusk*", "civil dusk: 20:05:58"),
        ("T", "Current time*", "14:37:22+0900"),
        ("Z", "Local timezone", "Asia/Seoul"),
    ]

    /// Nimbus's own codes, on letters wttr.in does not use.
    static let ownCodes: [(code: Character, nimbus: String)] = [
        ("a", "warnings in force: the most severe, +N more; empty when none"),
        ("y", "against yesterday: 3° warmer than yesterday"),
        ("n", "the 1991-2020 normal: normal 31° / 22°"),
        ("q", "air quality: AQI 42 (US EPA), EAQI 35 (European, in Europe)"),
        ("k", "\" (cached 3 h ago)\" when offline; empty when fresh"),
    ]

    /// `nimbus weather --help`'s description: the codes beside wttr.in's table.
    static var help: String {
        var lines = ["--oneline prints one line for status bars; --format says what is on it (a --format alone means --oneline; "
                     + "default \"\(OneShot.defaultFormat)\"). The codes are wttr.in's, with the same units, signs and spacing:", ""]
        lines += wttrCodes.map { "  %\($0.code)  \($0.wttr.padding(toLength: 38, withPad: " ", startingAt: 0))\($0.nimbus)" }
        lines += ["  (* on the city's own clock)", "", "Nimbus's own codes, on letters wttr.in does not use:", ""]
        lines += ownCodes.map { "  %\($0.code)  \($0.nimbus)" }
        lines += ["", "%% is a percent sign and \\n a new line; any other code is printed as written. Units follow --units, "
                  + "NIMBUS_UNITS, config.toml, then the locale (imperial: °F, mph, in). Exit status 1 when no city matches "
                  + "or no weather could be had."]
        return lines.joined(separator: "\n")
    }

    /// Whether `format` uses `code` (so that what only it needs is asked for).
    static func uses(_ format: String, _ code: Character) -> Bool {
        var percent = false
        for ch in format {
            if percent {
                if ch == code { return true }
                percent = false
            } else if ch == "%" {
                percent = true
            }
        }
        return false
    }

    /// `format` with every code filled from `weather`, cleaned of control characters but for new lines.
    static func render(_ format: String, _ weather: Weather) -> String {
        var out = ""
        var percent = false
        for ch in format {
            if percent {
                percent = false
                if ch == "%" { out += "%"; continue }
                if let value = value(of: ch, weather) { out += value } else { out += "%" + String(ch) }
            } else if ch == "%" {
                percent = true
            } else {
                out.append(ch)
            }
        }
        if percent { out += "%" }
        out = out.replacingOccurrences(of: "\\n", with: "\n")
        return out.split(separator: "\n", omittingEmptySubsequences: false)
            .map { DisplayWidth.sanitize(String($0)) }
            .joined(separator: "\n")
    }

    /// What `code` prints, nil for a code neither wttr.in nor Nimbus has.
    static func value(of code: Character, _ w: Weather) -> String? {
        let c = w.current
        switch code {
        case "c": return Sky(c.condition).emoji + " "
        case "x": return Sky(c.condition).plain
        case "C": return w.condition
        case "h": return humidity(c.humidity)
        case "t": return temperature(c.temperature, imperial: w.imperial)
        case "f": return temperature(c.apparentTemperature, imperial: w.imperial)
        case "w": return wind(speed: c.windSpeed, from: c.windDirection, imperial: w.imperial)
        case "l": return w.location
        case "m": return moonPhase(at: w.now)
        case "M": return moonDay(at: w.now)
        case "p": return precipitation(c.precipitation, imperial: w.imperial)
        case "o": return chance(w.chanceOfRain)
        case "P": return pressure(c.pressure)
        case "u": return w.uvIndex.flatMap { $0.isFinite ? String(Int($0.rounded())) : nil } ?? ""
        case "D", "S", "z", "s", "d": return sunTime(code, w)
        case "T": return clock(w.now, zone: w.zone, withOffset: true)
        case "Z": return w.zoneName
        case "a": return w.extras.warnings
        case "y": return w.extras.yesterday
        case "n": return w.extras.normal
        case "q": return w.extras.airQuality
        case "k": return w.extras.kept
        default: return nil
        }
    }

    // MARK: The codes, one by one (wttr.in's internal/renderer/oneline/render.go)

    /// `%t`, `%f`: whole degrees with a sign, `+` for zero and above ("+0°C" for −0.4 °C, as the
    /// whole-degree values wttr.in's source gives it).
    static func temperature(_ celsius: Double, imperial: Bool) -> String {
        guard celsius.isFinite else { return "" }
        let value = (imperial ? celsius * 9 / 5 + 32 : celsius).rounded()
        let whole = Int(value) // -0.0 becomes 0
        return (whole >= 0 ? "+" : "") + String(whole) + (imperial ? "°F" : "°C")
    }

    /// wttr.in's arrows, by where the wind comes from in 45° sectors: from the north it blows down (↓).
    static let arrows = ["↓", "↙", "←", "↖", "↑", "↗", "→", "↘"]

    /// `%w`: the arrow and the whole speed, no space: "→10km/h", "↑6mph".
    static func wind(speed kmh: Double, from degrees: Double, imperial: Bool) -> String {
        guard kmh.isFinite else { return "" }
        var arrow = ""
        if degrees.isFinite {
            let d = (degrees + 22.5).truncatingRemainder(dividingBy: 360)
            arrow = arrows[Int((d < 0 ? d + 360 : d) / 45) % 8]
        }
        let speed = imperial ? kmh / 1.609344 : kmh
        return arrow + String(Int(speed.rounded())) + (imperial ? "mph" : "km/h")
    }

    /// `%h`: "64%".
    static func humidity(_ percent: Double) -> String {
        percent.isFinite ? String(Int(percent.rounded())) + "%" : ""
    }

    /// `%p`: "0.0mm", or "0.00 in" (wttr.in's spacing for each); never "-0.0mm".
    static func precipitation(_ mm: Double, imperial: Bool) -> String {
        guard mm.isFinite else { return "" }
        let mm = max(0, mm)
        return imperial ? String(format: "%.2f in", mm / 25.4) : String(format: "%.1fmm", mm)
    }

    /// `%o`: "60%", empty when there is no chance (or none is known).
    static func chance(_ percent: Double?) -> String {
        guard let percent, percent.isFinite, Int(percent.rounded()) != 0 else { return "" }
        return String(Int(percent.rounded())) + "%"
    }

    /// `%P`: "1009hPa", in every unit system.
    static func pressure(_ hPa: Double) -> String {
        hPa.isFinite ? String(Int(hPa.rounded())) + "hPa" : ""
    }

    /// wttr.in's names for the sky (WorldWeatherOnline's conditions, grouped), with its emoji (`%c`)
    /// and plain symbol (`%x`).
    enum Sky: String, CaseIterable {
        case sunny, partlyCloudy, cloudy, veryCloudy, fog, lightRain, heavyRain, lightShowers, heavyShowers
        case lightSleet, lightSleetShowers, lightSnow, heavySnow, lightSnowShowers, heavySnowShowers
        case thunderyShowers, thunderyHeavyRain, thunderySnowShowers, unknown

        /// The WorldWeatherOnline condition nearest to the WMO code's.
        init(_ condition: WeatherCondition) {
            switch condition {
            case .clear, .mainlyClear: self = .sunny
            case .partlyCloudy: self = .partlyCloudy
            case .overcast: self = .veryCloudy
            case .fog: self = .fog
            case .drizzle: self = .lightRain
            case .rain: self = .heavyRain
            case .rainShowers: self = .lightShowers
            case .freezingDrizzle, .freezingRain: self = .lightSleet
            case .snow, .snowGrains: self = .lightSnow
            case .snowShowers: self = .lightSnowShowers
            case .thunderstorm: self = .thunderyShowers
            case .thunderstormHail: self = .thunderyHeavyRain
            case .unknown: self = .unknown
            }
        }

        var emoji: String {
            switch self {
            case .sunny: "☀️"
            case .partlyCloudy: "⛅"
            case .cloudy, .veryCloudy: "☁️"
            case .fog: "🌫️"
            case .lightRain, .lightShowers: "🌦️"
            case .heavyRain, .heavyShowers, .lightSleet, .lightSleetShowers: "🌧️"
            case .lightSnow, .heavySnow, .lightSnowShowers, .heavySnowShowers: "🌨️"
            case .thunderyHeavyRain: "🌩️"
            case .thunderyShowers, .thunderySnowShowers: "⛈️"
            case .unknown: "✨"
            }
        }

        var plain: String {
            switch self {
            case .sunny: "o"
            case .partlyCloudy: "m"
            case .cloudy: "mm"
            case .veryCloudy: "mmm"
            case .fog: "="
            case .lightRain: "/"
            case .heavyRain: "///"
            case .lightShowers: "."
            case .heavyShowers: "//"
            case .lightSleet: "x"
            case .lightSleetShowers: "x/"
            case .lightSnow: "*"
            case .heavySnow: "**"
            case .lightSnowShowers: "*/"
            case .heavySnowShowers: "*/*"
            case .thunderyShowers: "!/"
            case .thunderyHeavyRain: "/!/"
            case .thunderySnowShowers: "*!*"
            case .unknown: "?"
            }
        }
    }

    static let moons = ["🌑", "🌒", "🌓", "🌔", "🌕", "🌖", "🌗", "🌘"]

    /// `%m`: the phase's emoji, unmirrored, as wttr.in draws it everywhere.
    static func moonPhase(at date: Date) -> String {
        moons[MoonCalculator.state(at: date).phase.rawValue]
    }

    /// `%M`: days since the new moon, rounded, 0-29.
    static func moonDay(at date: Date) -> String {
        let age = MoonCalculator.synodicMonth * MoonCalculator.state(at: date).elongation / 360
        return String(min(29, max(0, Int(age.rounded()))))
    }

    /// `%D %S %z %s %d`: the time of that event on the city's date today, HH:MM:SS on the city's
    /// clock; empty when the sun does not get there that day (polar day and night, white nights).
    static func sunTime(_ code: Character, _ w: Weather) -> String {
        let day = w.zone.localDate(at: w.now)
        let instant: Date?
        switch code {
        case "S": instant = SolarCalculator.sunTimes(on: day, at: w.coordinate, zone: w.zone).sunrise
        case "s": instant = SolarCalculator.sunTimes(on: day, at: w.coordinate, zone: w.zone).sunset
        case "D": instant = SolarCalculator.civilTwilight(on: day, at: w.coordinate, zone: w.zone).dawn
        case "d": instant = SolarCalculator.civilTwilight(on: day, at: w.coordinate, zone: w.zone).dusk
        default: instant = SolarCalculator.solarNoon(on: day, at: w.coordinate, zone: w.zone)
        }
        return instant.map { clock($0, zone: w.zone, withOffset: false) } ?? ""
    }

    /// "14:37:22", with the offset "14:37:22+0900" for `%T` (wttr.in's "15:04:05-0700").
    static func clock(_ date: Date, zone: Zone, withOffset: Bool) -> String {
        let wall = zone.wallClock(at: date)
        var text = String(format: "%02d:%02d:%02d", wall.hour, wall.minute, wall.second)
        if withOffset {
            let offset = zone.offset(at: date)
            text += String(format: "%@%02d%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) % 3600 / 60)
        }
        return text
    }
}
