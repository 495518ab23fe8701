import NimbusTerminal
import NimbusPresentation

/// The styles of every element; a monochrome theme keeps everything readable without colour.
public struct Theme: Sendable {
    public var text: Style
    public var dim: Style
    public var accent: Style
    public var selection: Style
    public var tabBar: Style
    public var tabActive: Style
    public var statusBar: Style
    public var statusKey: Style
    public var field: Style
    public var placeholder: Style
    public var overlay: Style
    public var overlayBorder: Style
    public var warning: Style
    /// Styles of the city map.
    public var map: MapPalette = .color
    /// Six levels from good to the worst (air quality bands; the UV categories use the first five
    /// with the last two merged): green, yellow, orange, red, purple, maroon.
    public var levels: [Style] = [Style(fg: .index(34), bold: true), Style(fg: .index(220), bold: true),
                                  Style(fg: .index(208), bold: true), Style(fg: .index(196), bold: true),
                                  Style(fg: .index(129), bold: true), Style(fg: .index(124), bold: true)]
    /// The hourly sky row: sun, moon, cloud, fog, rain, snow, storm.
    public var skies: [Style] = [Style(fg: .index(220)), Style(fg: .index(229)), Style(fg: .index(250)),
                                 Style(fg: .index(244)), Style(fg: .index(75)), Style(fg: .white, bold: true),
                                 Style(fg: .index(214), bold: true)]

    /// 256-colour theme.
    public static let color = Theme(
        text: .plain,
        dim: Style(fg: .index(244)),
        accent: Style(fg: .index(75), bold: true),
        selection: Style(fg: .white, bg: .index(24), bold: true),
        tabBar: Style(fg: .index(250), bg: .index(236)),
        tabActive: Style(fg: .black, bg: .index(75), bold: true),
        statusBar: Style(fg: .index(250), bg: .index(236)),
        statusKey: Style(fg: .index(75), bg: .index(236), bold: true),
        field: .plain,
        placeholder: Style(fg: .index(244)),
        overlay: Style(fg: .white, bg: .index(235)),
        overlayBorder: Style(fg: .index(75), bg: .index(235)),
        warning: Style(fg: .yellow, bold: true)
    )

    /// For a light (white) background: dark text, darker accents, pale bars.
    public static let light = Theme(
        text: .plain,
        dim: Style(fg: .index(242)),
        accent: Style(fg: .index(25), bold: true),
        selection: Style(fg: .black, bg: .index(153), bold: true),
        tabBar: Style(fg: .index(236), bg: .index(252)),
        tabActive: Style(fg: .white, bg: .index(25), bold: true),
        statusBar: Style(fg: .index(236), bg: .index(252)),
        statusKey: Style(fg: .index(25), bg: .index(252), bold: true),
        field: .plain,
        placeholder: Style(fg: .index(245)),
        overlay: Style(fg: .black, bg: .index(255)),
        overlayBorder: Style(fg: .index(25), bg: .index(255)),
        warning: Style(fg: .index(130), bold: true),
        map: .light,
        levels: [Style(fg: .index(28), bold: true), Style(fg: .index(136), bold: true), Style(fg: .index(166), bold: true),
                 Style(fg: .index(160), bold: true), Style(fg: .index(91), bold: true), Style(fg: .index(88), bold: true)],
        skies: [Style(fg: .index(136)), Style(fg: .index(60)), Style(fg: .index(242)), Style(fg: .index(245)),
                Style(fg: .index(25)), Style(fg: .index(31), bold: true), Style(fg: .index(166), bold: true)]
    )

    /// No colour at all (`NO_COLOR`, or a terminal without colours): reverse video and bold carry the meaning.
    public static let monochrome = Theme(
        text: .plain,
        dim: Style(dim: true),
        accent: Style(bold: true),
        selection: Style(reverse: true),
        tabBar: .plain,
        tabActive: Style(bold: true, reverse: true),
        statusBar: Style(reverse: true),
        statusKey: Style(bold: true, reverse: true),
        field: .plain,
        placeholder: Style(dim: true),
        overlay: .plain,
        overlayBorder: Style(bold: true),
        warning: Style(bold: true),
        map: .monochrome,
        // Without colour the worse bands are louder: plain, then bold, then reversed.
        levels: [.plain, .plain, Style(bold: true), Style(bold: true), Style(bold: true, reverse: true),
                 Style(bold: true, reverse: true)],
        skies: Array(repeating: .plain, count: 7)
    )
}

extension Theme {
    /// The style of level `severity` (0 good … 5 worst), clamped.
    public func level(_ severity: Int) -> Style {
        levels.isEmpty ? text : levels[min(max(0, severity), levels.count - 1)]
    }

    /// The UV categories (0 low … 4 extreme) on the same colours: green, yellow, orange, red, purple.
    public func uvLevel(_ category: Int) -> Style {
        level(min(max(0, category), 4))
    }

    /// The colour of one hour's sky.
    public func sky(_ kind: HourSky.Kind) -> Style {
        let index: Int
        switch kind {
        case .sun: index = 0
        case .moon: index = 1
        case .cloud: index = 2
        case .fog: index = 3
        case .rain: index = 4
        case .snow: index = 5
        case .storm: index = 6
        case .unknown: return dim
        }
        return index < skies.count ? skies[index] : text
    }
}

/// Styles of the city map: land is dim and coasts are bright, so coastlines stand out without colour too.
public struct MapPalette: Sendable {
    public var land: Style
    public var coast: Style
    public var border: Style
    public var marker: Style
    public var label: Style
    /// Labels of markers other than the city's (places, earthquakes): quieter than the city's.
    public var otherLabel: Style
    public var scale: Style

    public static let color = MapPalette(
        land: Style(fg: .index(65)),
        coast: Style(fg: .index(114), bold: true),
        border: Style(fg: .index(180)),
        marker: Style(fg: .index(203), bold: true),
        label: Style(fg: .white, bg: .index(24), bold: true),
        otherLabel: Style(fg: .index(230), bg: .index(238)),
        scale: Style(fg: .index(250))
    )

    public static let light = MapPalette(
        land: Style(fg: .index(108)),
        coast: Style(fg: .index(22), bold: true),
        border: Style(fg: .index(130)),
        marker: Style(fg: .index(160), bold: true),
        label: Style(fg: .white, bg: .index(25), bold: true),
        otherLabel: Style(fg: .black, bg: .index(252)),
        scale: Style(fg: .index(238))
    )

    public static let monochrome = MapPalette(
        land: Style(dim: true),
        coast: .plain,
        border: .plain,
        marker: Style(bold: true),
        label: Style(bold: true, reverse: true),
        otherLabel: Style(reverse: true),
        scale: .plain
    )
}
