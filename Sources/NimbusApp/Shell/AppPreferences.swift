import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import NimbusUI

/// The settings as the app's frame and screens use them: the settings store's values as they apply
/// now, with what the terminal says about itself (colours, background) beside them. It keeps no
/// copy of a setting: each read follows the store, the one place settings change.
public final class AppPreferences {
    private let settings: SettingsRepository
    private let environment: [String: String]
    /// The store's contents last read, and what they resolved to.
    private var resolvedFrom: (contents: SettingsContents, resolved: ResolvedSettings)?

    /// No colours at all (`NO_COLOR` or the terminal): no theme setting changes that.
    public private(set) var monochrome: Bool
    /// The terminal's background, when it answered (OSC 11): what `auto` follows.
    public private(set) var terminalBackground: TerminalBackground?

    public init(settings: SettingsRepository, environment: [String: String], monochrome: Bool) {
        self.settings = settings
        self.environment = environment
        self.monochrome = monochrome
    }

    /// Every setting as it applies now.
    public var resolved: ResolvedSettings {
        let contents = settings.current
        if let resolvedFrom, resolvedFrom.contents == contents { return resolvedFrom.resolved }
        let resolved = ResolvedSettings(contents.effective, environment: environment)
        resolvedFrom = (contents, resolved)
        return resolved
    }

    /// The theme setting (dark, light or auto) as it is now.
    public var themeSetting: UserSettings.Theme { resolved.theme }
    /// Braille or blocks: the settings, or `c` on a map for the rest of the run.
    public var mapStyle: MapStyle { resolved.mapStyle }
    /// Mouse reporting on.
    public var mouse: Bool { resolved.mouse }
    /// The tab the app opens on (1...6).
    public var defaultTab: Int { resolved.defaultTab }
    /// Home: the Today tab's position when none is given on the command line or in the environment.
    public var home: UserSettings.Home? { resolved.home }

    /// The colours to draw with now.
    public var theme: Theme { Self.chooseTheme(themeSetting, background: terminalBackground, monochrome: monochrome) }

    /// Switches to the colourless theme (the terminal has no colours).
    public func useMonochrome() { monochrome = true }

    /// The terminal's background (OSC 11), which the `auto` theme follows.
    public func useTerminalBackground(_ background: TerminalBackground?) { terminalBackground = background }

    /// The theme for the setting, the terminal's background and `monochrome`.
    public static func chooseTheme(_ setting: UserSettings.Theme, background: TerminalBackground?, monochrome: Bool) -> Theme {
        if monochrome { return .monochrome }
        return themeBackground(setting, terminal: background) == .light ? .light : .color
    }

    /// The background a theme setting draws for: the light theme's is light, the dark theme's dark,
    /// `auto`'s the terminal's (dark when it did not say).
    static func themeBackground(_ setting: UserSettings.Theme, terminal: TerminalBackground?) -> TerminalBackground {
        switch setting {
        case .dark: return .dark
        case .light: return .light
        case .auto: return terminal == .light ? .light : .dark
        }
    }

    /// The background the theme in use was made for (a picture of the screen is drawn on it); the
    /// colourless theme's is dark.
    public var themeBackground: TerminalBackground {
        monochrome ? .dark : Self.themeBackground(themeSetting, terminal: terminalBackground)
    }
}
