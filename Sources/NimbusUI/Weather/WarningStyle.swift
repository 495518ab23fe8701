import NimbusDomain
import NimbusTerminal

extension Theme {
    /// An official warning's style by its severity: minor, moderate, severe and extreme on the
    /// levels' yellow, orange, red and purple; without colour, bold, and reversed from severe up.
    public func warningSeverity(_ severity: WeatherWarning.Severity) -> Style {
        let style: Style
        switch severity {
        case .unknown: style = warning
        case .minor: style = level(1)
        case .moderate: style = level(2)
        case .severe: style = level(3)
        case .extreme: style = level(4)
        }
        guard style.fg == .default else { return style }
        return Style(bold: true, reverse: severity >= .severe)
    }
}
