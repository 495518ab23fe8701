import ArgumentParser
import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import CombineSchedulers
import OpenCombineShim

// The options of the command line, in groups: each command takes the groups it uses, so that its
// `--help`, the man page and the completions list only what does something there.

/// The city catalogue searched: the app and every command that finds a city (`weather`, `map`,
/// `search`).
public struct CatalogueOptions: ParsableArguments {
    public enum Tier: String, ExpressibleByArgument, CaseIterable, Sendable {
        case standard, large
    }

    @Option(help: ArgumentHelp(
        "City catalogue: 'standard' (bundled, ~34k cities with population ≥ 15,000) or 'large' (~170k, population ≥ 1,000; generate it first with scripts/build-resources.py --tier 1000).",
        valueName: "tier"))
    public var tier: Tier = .standard

    @Option(help: ArgumentHelp("Load the city catalogue from this file instead.", valueName: "path"),
            completion: .file(extensions: ["bin"]))
    public var catalog: String?

    public init() {}
}

/// `--units`: the app, `weather` and `map` (its scale bar).
public struct UnitsOption: ParsableArguments {
    @Option(help: ArgumentHelp("metric, imperial or auto (the locale's). Over NIMBUS_UNITS and config.toml.", valueName: "units"))
    public var units: UserSettings.Units?

    public init() {}
}

/// `--lang`: the app and every command that prints words (`weather`, `map`, `search`, `movies`).
public struct LanguageOption: ParsableArguments {
    @Option(help: ArgumentHelp("en, ko or ja: the language of what is shown. Over NIMBUS_LANG and the locale.", valueName: "lang"),
            completion: .list(Language.allCases.map(\.rawValue)))
    public var lang: String?

    public init() {}

    public func validate() throws {
        if let lang, Language(rawValue: lang.lowercased()) == nil {
            throw ValidationError("--lang must be en, ko or ja (got '\(CLIOptions.shown(lang))')")
        }
    }

    /// The language asked for, nil when none was.
    var language: Language? { lang.flatMap { Language(rawValue: $0.lowercased()) } }
}

/// The options of the app (`nimbus` alone), which tapes' `Args` lines take too.
public struct CLIOptions: ParsableArguments {
    public typealias Tier = CatalogueOptions.Tier

    @OptionGroup public var catalogue: CatalogueOptions

    @Option(help: ArgumentHelp(
        "Your position for the Today tab, in decimal degrees (e.g. 37.57,126.98 or -33.86,151.21). Else NIMBUS_LOCATION, else the home setting, else the system time zone.",
        valueName: "lat,lon"))
    public var location: String?

    @Option(help: ArgumentHelp(
        "Log every network request to this file (one it makes is 0600; rotated at 1 MB, 3 files kept), at NIMBUS_LOG's level or info. Without it, NIMBUS_LOG=debug|info logs to $XDG_STATE_HOME/nimbus/nimbus.log (else ~/.local/state/nimbus/nimbus.log).",
        valueName: "path"), completion: .file())
    public var logFile: String?

    @OptionGroup public var unitsOption: UnitsOption

    @OptionGroup public var languageOption: LanguageOption

    @Option(help: ArgumentHelp("dark, light or auto (asks the terminal). Over NIMBUS_THEME and config.toml.", valueName: "theme"))
    public var theme: UserSettings.Theme?

    @Option(help: ArgumentHelp("braille, blocks or auto (blocks on the Linux console). Over NIMBUS_MAP_STYLE and config.toml.",
                               valueName: "style"))
    public var mapStyle: UserSettings.MapStyle?

    @Flag(name: .customLong("no-mouse"), help: ArgumentHelp(
        "Do not ask the terminal for mouse reports (clicks, the wheel, drags), so it selects text on a plain drag. Also NIMBUS_MOUSE=0. With the mouse on, Shift+drag still selects text in most terminals."))
    public var noMouse = false

    public init() {}

    public var tier: Tier {
        get { catalogue.tier }
        set { catalogue.tier = newValue }
    }

    public var catalog: String? {
        get { catalogue.catalog }
        set { catalogue.catalog = newValue }
    }

    public var units: UserSettings.Units? {
        get { unitsOption.units }
        set { unitsOption.units = newValue }
    }

    /// Options whose value may begin with a minus sign (a southern latitude): `--location -33.86,151.21`
    /// is `--location=-33.86,151.21`, not an unknown option `-3`; a negative `--limit` or `--zoom` is
    /// then told its range rather than that its value is missing.
    static let signedOptions: Set<String> = ["--location", "--limit", "--zoom"]

    /// `arguments` with each value of a `signedOptions` option that begins with `-` joined to its
    /// option by `=`, so the parser takes it as the value it is.
    public static func joiningSignedValues(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var i = arguments.startIndex
        while i < arguments.endIndex {
            let argument = arguments[i]
            let next = arguments.index(after: i)
            if argument == "--" {
                out += arguments[i...]
                break
            }
            if signedOptions.contains(argument), next < arguments.endIndex, arguments[next].hasPrefix("-"),
               arguments[next].dropFirst().first.map({ $0.isNumber || $0 == "." }) == true {
                out.append(argument + "=" + arguments[next])
                i = arguments.index(after: next)
                continue
            }
            out.append(argument)
            i = next
        }
        return out
    }

    /// Parses options as the command line gives them (see `joiningSignedValues`).
    public static func parseCommandLine(_ arguments: [String]) throws -> CLIOptions {
        try parse(joiningSignedValues(arguments))
    }

    public func validate() throws {
        _ = try Self.point(location, option: "--location")
    }

    /// The position `text` gives, nil without one; a usage error saying what is wrong with it.
    static func point(_ text: String?, option: String) throws -> GeoPoint? {
        guard let text else { return nil }
        do {
            return try GeoPoint.parse(text)
        } catch {
            throw ValidationError(message(for: error, option: option))
        }
    }

    /// The parsed options as plain values.
    struct Values: Sendable {
        var tier: Tier
        var catalog: String?
        /// The position given with `--location` (already checked by `validate`).
        var location: GeoPoint?
        /// `--log-file` (only the real app logs; tapes never do).
        var logFile: String?
        /// `--units`, `--theme`, `--map-style`, `--no-mouse`.
        var settings = UserSettings()
        /// `--lang`, over `NIMBUS_LANG` and the locale.
        var language: Language?

        /// What an empty command line means.
        static let defaults = Values(tier: .standard, catalog: nil, location: nil, logFile: nil)

        /// A command's options: the catalogue it searches, the units it prints in, the position it
        /// starts from (each as given, or the default).
        static func command(catalogue: CatalogueOptions? = nil, units: UnitsOption? = nil, language: LanguageOption? = nil,
                            location: GeoPoint? = nil) -> Values {
            Values(tier: catalogue?.tier ?? .standard, catalog: catalogue?.catalog, location: location, logFile: nil,
                   settings: UserSettings(units: units?.units), language: language?.language)
        }

        func configuration(environment: [String: String], scheduler: AnySchedulerOf<DispatchQueue>,
                           colors: Bool) -> AppDIContainer.Configuration {
            let choice: CatalogChoice
            if let catalog { choice = .file(URL(fileURLWithPath: catalog)) }
            else { choice = tier == .large ? .large : .bundled }
            var environment = environment
            if let language { environment["NIMBUS_LANG"] = language.rawValue }
            var configuration = AppDIContainer.Configuration(
                environment: environment, catalog: choice, location: location, scheduler: scheduler, colors: colors)
            configuration.settingsFlags = settings
            return configuration
        }
    }

    var values: Values {
        Values(tier: tier, catalog: catalog, location: location.flatMap { try? GeoPoint.parse($0) }, logFile: logFile,
               settings: UserSettings(units: units, theme: theme, mapStyle: mapStyle, mouse: noMouse ? false : nil),
               language: languageOption.language)
    }

    /// What is wrong with a position given on the command line or in the environment.
    static func message(for error: GeoPoint.ParseError, option: String) -> String {
        switch error {
        case .notTwoNumbers(let text):
            return "\(option) takes latitude,longitude in decimal degrees, like 37.57,126.98 or -33.86,151.21 (got '\(Self.shown(text))')"
        case .latitudeOutOfRange(let v):
            return "\(option): latitude \(v) is outside -90...90 (give latitude,longitude, like -33.86,151.21)"
        case .longitudeOutOfRange(let v):
            return "\(option): longitude \(v) is outside -180...180 (give latitude,longitude, like -33.86,151.21)"
        }
    }

    /// What the options mean for the app, in `environment`, with its scheduler.
    public func configuration(environment: [String: String], scheduler: AnySchedulerOf<DispatchQueue>,
                              colors: Bool) -> AppDIContainer.Configuration {
        values.configuration(environment: environment, scheduler: scheduler, colors: colors)
    }

    /// A value from the command line, printable on one line: control characters dropped, at most 40 characters.
    static func shown(_ text: String) -> String {
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        return clean.count > 40 ? String(clean.prefix(39)) + "…" : clean
    }
}

extension UserSettings.Units: ExpressibleByArgument {}
extension UserSettings.Theme: ExpressibleByArgument {}
extension UserSettings.MapStyle: ExpressibleByArgument {}
