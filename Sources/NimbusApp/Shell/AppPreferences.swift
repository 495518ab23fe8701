import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import NimbusUI

/// The user interface's preferences that change while the app runs, in one value the app owns
/// (`AppDIContainer.preferences`): containers read them when they make something, and never keep
/// their own copy.
public struct AppPreferences: Sendable {
    /// Colours, or none (`NO_COLOR`, or a terminal without colours).
    public var theme: Theme
    /// Braille or blocks, as last chosen with `c` on a map or in the settings: a font without
    /// braille needs blocks on every map.
    public var mapStyle: MapStyle
    /// The theme setting (dark, light or auto) as it is now.
    public var themeSetting: UserSettings.Theme = .dark
    /// No colours at all (`NO_COLOR` or the terminal): no theme setting changes that.
    public var monochrome = false
    /// The terminal's background, when it answered (OSC 11): what `auto` follows.
    public var terminalBackground: TerminalBackground?
    /// Mouse reporting on.
    public var mouse = true
    /// The tab the app opens on (1...6).
    public var defaultTab = 1
    /// Home: the Today tab's position when none is given on the command line or in the environment.
    public var home: UserSettings.Home?

    public init(theme: Theme, mapStyle: MapStyle = .braille) {
        self.theme = theme
        self.mapStyle = mapStyle
    }

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

    /// Applies the theme setting (and whatever else decides the theme) to `theme`.
    public mutating func updateTheme() {
        theme = AppPreferences.chooseTheme(themeSetting, background: terminalBackground, monochrome: monochrome)
    }
}
