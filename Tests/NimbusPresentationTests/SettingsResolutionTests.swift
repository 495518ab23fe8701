import TestSupport
import NimbusData
import NimbusDomain
@testable import NimbusPresentation
import XCTest

/// Command-line flag > environment variable > config file > locale default, for every setting.
final class SettingsResolutionTests: XCTestCase {
    struct Case {
        let name: String
        let flags: UserSettings
        let environment: [String: String]
        let file: UserSettings
        let check: (ResolvedSettings) -> Bool
    }

    func testPrecedenceTable() {
        let cases: [Case] = [
            Case(name: "nothing: locale default (no region → metric), auto theme, braille, tab 1",
                 flags: .init(), environment: [:], file: .init(),
                 check: { $0.units == .init(system: .metric) && $0.theme == .auto && $0.mapStyle == .braille
                     && $0.mouse && $0.defaultTab == 1 && $0.home == nil && $0.units.clock == .h24 }),
            Case(name: "locale en_US → imperial, °F, mph", flags: .init(), environment: ["LANG": "en_US.UTF-8"], file: .init(),
                 check: { $0.units == .init(system: .imperial, temperature: .f, wind: .mph) }),
            Case(name: "file over locale", flags: .init(), environment: ["LANG": "en_US.UTF-8"], file: .init(units: .metric),
                 check: { $0.units.system == .metric && $0.units.temperature == .c }),
            Case(name: "file auto is the locale", flags: .init(), environment: ["LANG": "en_US.UTF-8"], file: .init(units: .auto),
                 check: { $0.units.system == .imperial }),
            Case(name: "environment over file", flags: .init(), environment: ["NIMBUS_UNITS": "imperial"], file: .init(units: .metric),
                 check: { $0.units.system == .imperial && $0.units.temperature == .f }),
            Case(name: "flag over environment", flags: .init(units: .metric), environment: ["NIMBUS_UNITS": "imperial"],
                 file: .init(units: .imperial), check: { $0.units.system == .metric }),
            Case(name: "flag auto falls through to the environment", flags: .init(units: .auto),
                 environment: ["NIMBUS_UNITS": "imperial"], file: .init(), check: { $0.units.system == .imperial }),
            Case(name: "a bad environment value is ignored", flags: .init(), environment: ["NIMBUS_UNITS": "kelvin"],
                 file: .init(units: .imperial), check: { $0.units.system == .imperial }),
            Case(name: "the file's temperature and wind under its units", flags: .init(), environment: [:],
                 file: .init(units: .metric, temperatureUnit: .f, windUnit: .ms, clock: .h12),
                 check: { $0.units == .init(system: .metric, temperature: .f, wind: .ms, clock: .h12) }),
            Case(name: "units from the environment override the file's temperature", flags: .init(),
                 environment: ["NIMBUS_UNITS": "metric"], file: .init(units: .imperial, temperatureUnit: .f),
                 check: { $0.units.temperature == .c && $0.units.wind == .kmh }),
            Case(name: "theme: flag > env > file", flags: .init(theme: .light), environment: ["NIMBUS_THEME": "dark"],
                 file: .init(theme: .auto), check: { $0.theme == .light }),
            Case(name: "theme: env > file", flags: .init(), environment: ["NIMBUS_THEME": "Dark"], file: .init(theme: .light),
                 check: { $0.theme == .dark }),
            Case(name: "theme: file", flags: .init(), environment: [:], file: .init(theme: .light), check: { $0.theme == .light }),
            Case(name: "map style auto on the Linux console is blocks", flags: .init(), environment: ["TERM": "linux"],
                 file: .init(), check: { $0.mapStyle == .blocks }),
            Case(name: "map style auto elsewhere is braille", flags: .init(), environment: ["TERM": "xterm-256color"],
                 file: .init(mapStyle: .auto), check: { $0.mapStyle == .braille }),
            Case(name: "map style: file braille on the console", flags: .init(), environment: ["TERM": "linux"],
                 file: .init(mapStyle: .braille), check: { $0.mapStyle == .braille }),
            Case(name: "map style: env over file", flags: .init(), environment: ["NIMBUS_MAP_STYLE": "blocks"],
                 file: .init(mapStyle: .braille), check: { $0.mapStyle == .blocks }),
            Case(name: "map style: flag over env", flags: .init(mapStyle: .braille), environment: ["NIMBUS_MAP_STYLE": "blocks"],
                 file: .init(), check: { $0.mapStyle == .braille }),
            Case(name: "mouse, tab and home from the file", flags: .init(), environment: [:],
                 file: .init(mouse: false, defaultTab: 4, home: .city(1835848)),
                 check: { !$0.mouse && $0.defaultTab == 4 && $0.home == .city(1835848) }),
        ]
        for c in cases {
            let resolved = ResolvedSettings.resolve(flags: c.flags, environment: c.environment, file: c.file)
            XCTAssertTrue(c.check(resolved), "\(c.name): got \(resolved)")
        }
    }

    func testTheFormatterWritesInTheUnitsItIsMadeWith() {
        let metric = WeatherFormatter(l10n: L10n.bundled(.en), units: .metric, zones: SystemZoneDatabase.forTests)
        XCTAssertEqual(metric.temperature(20), "20°C")
        XCTAssertEqual(metric.wind(speed: 36, from: .nan), "36 km/h")
        var format = metric.with(.init(system: .metric, temperature: .f, wind: .ms, clock: .h12), metric.l10n)
        XCTAssertEqual(metric.temperature(20), "20°C", "a value: the first formatter is unchanged")
        XCTAssertEqual(format.temperature(20), "68°F")
        XCTAssertEqual(format.wind(speed: 36, from: .nan), "10 m/s")
        XCTAssertEqual(format.pressure(1013), "1013 hPa")
        let seven = Date(timeIntervalSince1970: 7 * 3600)
        XCTAssertEqual(format.clock(in: .utc).time(seven), "7:00 AM")
        format = format.with(.init(system: .imperial), format.l10n)
        XCTAssertEqual(format.wind(speed: 16.09344, from: .nan), "10 mph")
        XCTAssertEqual(format.clock(in: .utc).time(seven), "07:00")
    }
}
