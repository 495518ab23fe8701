import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// What `nimbus weather` adds to the forecast: yesterday (from the forecast's own answer), the
/// normal for the date (the archive, asked once per place) and the official warnings in force. Each
/// is asked for on its own: one that fails leaves the others and the forecast as they are, and none
/// holds the answer back for long (`patience`: a service retrying after a 429 or a reset is given up on).
@MainActor
struct OneShotExtras {
    /// How long the extras may add to the command, at most.
    static let patience: TimeInterval = 8

    var forecast: Forecast
    var normal: NormalComparison?
    var normalError: ClimateError?
    var warnings: CityWarnings?
    var warningsError: WarningsError?
    /// The warnings came from the kept copy only (the service could not be reached).
    var warningsStale = false

    /// The air now (for the one line's `%u` and `%q`), when asked for.
    var air: AirQuality?

    /// Asks for what is wanted, in parallel, waiting at most `patience` for all of them.
    static func fetch(for city: City, forecast: Forecast, container: AppDIContainer, context: OneShot.Context,
                      warnings wantWarnings: Bool = true, normals wantNormals: Bool = true,
                      air wantAir: Bool = false) -> OneShotExtras {
        var extras = OneShotExtras(forecast: forecast)
        let air = wantAir ? OneShot.Answer(GetAirQualityUseCase(repository: container.airQualityRepository).execute(for: city)) : nil
        let normal = wantNormals
            ? OneShot.Answer(GetClimateNormalsUseCase(repository: container.makeClimateNormalsRepository()).compare(forecast, for: city))
            : nil
        let warnings = wantWarnings
            ? OneShot.Answer(GetWarningsUseCase(repository: container.makeWarningsRepository(), now: context.now).execute(for: city))
            : nil
        OneShot.wait(Self.patience) { (normal?.finished ?? true) && (warnings?.finished ?? true) && (air?.finished ?? true) }
        normal?.cancel()
        warnings?.cancel()
        air?.cancel()
        extras.air = air?.values.last?.value
        extras.normal = normal?.values.last
        extras.normalError = normal?.failure
        extras.warnings = warnings?.values.last
        extras.warningsError = warnings?.failure
        extras.warningsStale = warnings?.failure != nil && warnings?.values.isEmpty == false
        return extras
    }

    // MARK: One line

    /// Nimbus's own codes of the one line, formatted (`kept` is the caller's to fill).
    func line(_ format: WeatherFormatter, city: City, now: Date) -> OneLineFormat.Extras {
        var line = OneLineFormat.Extras()
        line.warnings = DisplayWidth.sanitize(format.warningsLine(warnings?.active ?? [], city: city, now: now))
        if let difference = forecast.todayAgainstYesterday { line.yesterday = format.againstYesterday(difference) }
        if let normal { line.normal = format.normal(normal.normal) }
        let scale = AirQualityScale(city: city)
        if let index = air?.index(scale), index.isFinite {
            line.airQuality = (scale == .us ? "AQI " : "EAQI ") + String(Int(index.rounded()))
        }
        return line
    }

    // MARK: JSON

    /// Metric, ISO 8601, the services' text as published.
    struct JSON: Encodable {
        struct Yesterday: Encodable {
            /// The city's calendar date ("2026-03-28").
            let date: String
            let highC: Double, lowC: Double
        }
        struct Comparison: Encodable {
            /// "warmer", "colder" or "aboutTheSame" (a difference under 1 °C), from `differenceC`.
            let comparison: String
            /// Signed, °C, to a tenth.
            let differenceC: Double
        }
        struct Normal: Encodable {
            /// The 1991–2020 mean high and low of today's date at the place.
            let highC: Double, lowC: Double
            let todayHigh: Comparison?, todayLow: Comparison?
        }
        struct Warning: Encodable {
            let event: String, severity: String, headline: String?, description: String?, instruction: String?
            let sender: String?, effective: Date?, onset: Date?, expires: Date?, language: String?
        }
        struct Warnings: Encodable {
            /// "nws", "meteoAlarm", "jma"; absent when the place has no official warnings source.
            let source: String?
            let covered: Bool
            /// In force now, most severe first.
            let active: [Warning]
            /// From the kept copy: the service could not be reached.
            let stale: Bool
            /// Why the service could not be asked (the rest of the answer stands).
            let error: String?
        }

        var yesterday: Yesterday?
        var todayAgainstYesterday: Comparison?
        var normal: Normal?
        var warnings: Warnings?
    }

    static func comparison(_ difference: TemperatureDifference?) -> JSON.Comparison? {
        guard let difference else { return nil }
        return JSON.Comparison(comparison: difference.direction.rawValue, differenceC: difference.degrees)
    }

    var json: JSON {
        var json = JSON()
        if let y = forecast.yesterday { json.yesterday = JSON.Yesterday(date: y.day.description, highC: y.high, lowC: y.low) }
        json.todayAgainstYesterday = Self.comparison(forecast.todayAgainstYesterday)
        if let normal {
            json.normal = JSON.Normal(highC: normal.normal.high, lowC: normal.normal.low,
                                      todayHigh: Self.comparison(normal.high), todayLow: Self.comparison(normal.low))
        }
        let source: String?
        switch warnings?.coverage {
        case .covered(let s)?: source = s.rawValue
        default: source = nil
        }
        if warnings != nil || warningsError != nil {
            json.warnings = JSON.Warnings(
                source: source, covered: source != nil,
                active: (warnings?.active ?? []).map {
                    JSON.Warning(event: $0.event, severity: "\($0.severity)", headline: $0.headline, description: $0.description,
                                 instruction: $0.instruction, sender: $0.sender, effective: $0.effective, onset: $0.onset,
                                 expires: $0.expires, language: $0.language)
                },
                stale: warningsStale || warnings?.report?.isCached == true,
                error: warningsError.map { "\($0)" })
        }
        return json
    }
}
