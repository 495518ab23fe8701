import NimbusData
import Foundation
import Testing
import PropertyBased
import NimbusDomain
@testable import NimbusPresentation
import TestSupport
import CombineSchedulers

/// The hours ahead and the air line, from random forecasts and readings: every row of the chart has
/// one column per hour (temperatures, sky, chances, axis marks), the 24 hours are the 48's first
/// half, a mark stands exactly at every sixth hour of the city's clock, and nothing from a reading
/// is out of its scale.
@Suite struct HoursAheadPropertyTests {
    /// Zones with half hours, 45 minutes, DST both ways and the date line.
    static let cities: [City] = [
        ("Asia/Seoul", "KR"), ("America/St_Johns", "CA"), ("Asia/Kathmandu", "NP"), ("Pacific/Chatham", "NZ"),
        ("Europe/London", "GB"), ("America/Los_Angeles", "US"), ("Australia/Lord_Howe", "AU"), ("Pacific/Kiritimati", "KI"),
    ].enumerated().map { i, zone in
        City(id: i + 1, name: "City \(i)", countryCode: zone.1, latitude: 10, longitude: 20, population: 1000,
             timeZone: zone.0, alternateNames: [])
    }

    static func format(_ language: Language, clock: UserSettings.Clock) -> WeatherFormatter {
        WeatherFormatter(l10n: L10n.bundled(language), display: .init(system: .metric, clock: clock), zones: SystemZoneDatabase.forTests)
    }

    static func viewModel(_ city: City, _ language: Language, clock: UserSettings.Clock, now: Date) -> CityDetailViewModel {
        CityDetailViewModel(city: city, forecast: GetForecastUseCase(repository: WeatherRepositoryDouble.failing()),
                                   likes: nil, format: format(language, clock: clock),
                                   scheduler: DispatchQueue.immediate.eraseToAnyScheduler(), now: { now })
    }

    @Test func everyRowHasOneColumnAnHourAndMarksFallOnTheCitysSixthHours() async {
        await propertyCheck(count: PropertyCount.scaled(default: 150), input: Gen.int().array(of: 1...70)) { seeds in
            let city = Self.cities[abs(seeds[0] % Self.cities.count)]
            let language = [Language.en, .ko, .ja][abs(seeds[0] / 7 % 3)]
            let clock: UserSettings.Clock = seeds[0] % 2 == 0 ? .h24 : .h12
            // Around DST changes: any hour from 2026 to 2027.
            let start = Date(timeIntervalSince1970: 1_767_225_600 + Double(abs(seeds[0] % 8760)) * 3600)
            let hours = seeds.enumerated().map { i, seed in
                let conditions = WeatherCondition.allCases
                return HourlyForecast(time: start.addingTimeInterval(Double(i) * 3600), temperature: Double(seed % 60),
                                      precipitationProbability: seed % 5 == 0 ? nil : Double(abs(seed) % 101),
                                      condition: conditions[abs(seed / 3) % conditions.count],
                                      isDay: seed % 7 == 0 ? nil : seed % 2 == 0,
                                      precipitation: seed % 4 == 0 ? nil : Double(abs(seed) % 50) / 10,
                                      rain: seed % 3 == 0 ? nil : Double(abs(seed) % 30) / 10,
                                      snowfall: seed % 6 == 0 ? Double(abs(seed) % 20) / 10 : 0)
            }
            let now = start.addingTimeInterval(Double(abs(seeds.last! % 3600)))
            let forecast = Forecast(coordinate: Coordinate(latitude: 10, longitude: 20), utcOffsetSeconds: 0,
                                    current: Forecast.sample().current, hourly: hours, daily: [])
            let model = Self.viewModel(city, language, clock: clock, now: now)
            let format = Self.format(language, clock: clock)
            let day = model.hoursView(forecast.hours(from: now, count: 24), title: "24", format: format)
            let two = model.hoursView(forecast.hours(from: now, count: 48), title: "48", format: format)
            for view in [day, two] {
                let n = view.temperatures.count
                #expect(view.sky.count == n && view.chances.count == n && view.marks.count == n)
                #expect(view.sky.allSatisfy { $0.symbol.unicodeScalars.count == 1 })
                #expect(!view.falls.isEmpty && !view.fallsSummary.isEmpty)
            }
            #expect(day.temperatures.count == min(24, hours.count))
            #expect(two.temperatures.count == min(48, hours.count))
            #expect(day.marks == Array(two.marks.prefix(day.marks.count)))
            #expect(day.sky == Array(two.sky.prefix(day.sky.count)))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: city.timeZone)!
            let shown = forecast.hours(from: now, count: 48)
            for (hour, mark) in zip(shown, two.marks) {
                let local = calendar.component(.hour, from: hour.time)
                #expect((mark != nil) == (local % 6 == 0), "\(city.timeZone) \(hour.time) \(String(describing: mark))")
                if clock == .h24, let mark { #expect(mark == String(format: "%02d", local)) }
            }
        }
    }

    @Test func theAirLineNamesItsScaleAndStaysInIt() async {
        await propertyCheck(count: PropertyCount.scaled(default: 150), input: Gen.int().array(of: 8...8)) { seeds in
            func value(_ seed: Int, _ top: Double) -> Double? { seed % 5 == 0 ? nil : Double(abs(seed) % 100_000) / 100_000 * top }
            let air = AirQuality(time: Date(timeIntervalSince1970: 1_782_000_000), usIndex: value(seeds[0], 1000),
                                 europeanIndex: value(seeds[1], 1000), pm2_5: value(seeds[2], 2000), pm10: value(seeds[3], 5000),
                                 ozone: value(seeds[4], 1000), uvIndex: value(seeds[5], 50), uvIndexMax: value(seeds[6], 50))
            let city = Self.cities[abs(seeds[7] % Self.cities.count)]
            let scale = AirQualityScale(city: city)
            let language = [Language.en, .ko, .ja][abs(seeds[7] / 11 % 3)]
            let l10n = L10n.bundled(language)
            if let index = air.index(scale) {
                let band = AirQualityBand(index: index, scale: scale)
                #expect((0...5).contains(band.severity))
                #expect(!CityDetailViewModel.bandName(band, l10n).isEmpty)
            }
            if let uv = air.uvIndexMax { #expect((0...4).contains(UVCategory(index: uv).rawValue)) }
            #expect(scale == (city.countryCode == "GB" ? .european : .us))
        }
    }
}
