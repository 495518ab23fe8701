import NimbusDomain
import NimbusUI

/// The user interface's preferences that change while the app runs, in one value the app owns
/// (`AppDIContainer.preferences`): containers read them when they make something, and never keep
/// their own copy.
public struct AppPreferences: Sendable {
    /// Colours, or none (`NO_COLOR`, or a terminal without colours).
    public var theme: Theme
    /// Braille or blocks, as last chosen with `c` on a map: a font without braille needs blocks on every map.
    public var mapStyle: MapStyle

    public init(theme: Theme, mapStyle: MapStyle = .braille) {
        self.theme = theme
        self.mapStyle = mapStyle
    }
}
