import Foundation
import NimbusDomain

/// The full text of a city's warnings in force, as the overlay shows it: each warning's event and
/// facts with labels in the UI language, then its headline, description and instructions exactly as
/// the service published them, in their own language.
public struct WarningsText: Equatable, Sendable {
    /// One line of the text, before wrapping.
    public struct Line: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            /// A warning's event, in its severity's style.
            case event(WeatherWarning.Severity)
            /// A labelled fact (severity, times, issuer, language) or a label.
            case fact
            /// The service's own text.
            case text
            case blank
        }
        public let text: String
        public let kind: Kind
    }

    /// "Warnings in force · Seattle".
    public let title: String
    public let lines: [Line]
    /// How to scroll and close.
    public let footer: String

    /// The text of the shown warnings (not expired at its `now`) in `l10n`'s language, times in the
    /// city's clock: those in force first, then those whose weather starts later ("Coming: …"); the
    /// title says "in force" only when one is.
    public static func make(_ shown: WarningsShown, l10n: L10n) -> WarningsText {
        let warnings = shown.warnings, now = shown.now
        let clock = ClockFormat(language: l10n.language, clock: shown.clock, zone: shown.zone)
        let inForce = warnings.filter { !isComing($0, at: now) }
        let ordered = inForce + warnings.filter { isComing($0, at: now) }
        var lines: [Line] = []
        for (i, warning) in ordered.enumerated() {
            if i > 0 { lines.append(Line(text: "", kind: .blank)) }
            lines.append(Line(text: warning.event, kind: .event(warning.severity)))
            lines.append(Line(text: l10n.format(.warningsSeverity, severityName(warning.severity, l10n)), kind: .fact))
            let times = Self.times(warning, clock: clock, l10n: l10n, now: now)
            if !times.isEmpty {
                lines.append(Line(text: l10n.format(isComing(warning, at: now) ? .warningsComing : .warningsInForce, times), kind: .fact))
            }
            if let sender = warning.sender, !sender.isEmpty { lines.append(Line(text: l10n.format(.warningsSender, sender), kind: .fact)) }
            if let language = warning.language, !language.isEmpty {
                let name = l10n.locale.localizedString(forIdentifier: language) ?? language
                lines.append(Line(text: l10n.format(.warningsLanguage, name), kind: .fact))
            }
            for text in [warning.headline, warning.description].compactMap({ $0 }) where !text.isEmpty {
                lines.append(Line(text: "", kind: .blank))
                lines += paragraphs(text)
            }
            if let instruction = warning.instruction, !instruction.isEmpty {
                lines.append(Line(text: "", kind: .blank))
                lines.append(Line(text: l10n[.warningsInstruction], kind: .fact))
                lines += paragraphs(instruction)
            }
        }
        let title: L10nKey = inForce.isEmpty && !warnings.isEmpty ? .warningsTitleComing : .warningsTitle
        return WarningsText(title: l10n.format(title, CityNameChoice.name(shown.city, language: l10n.language)), lines: lines,
                            footer: l10n[.warningsClose])
    }

    /// The service's text, one line per line it has (each wrapped when drawn).
    private static func paragraphs(_ text: String) -> [Line] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return Line(text: trimmed, kind: trimmed.isEmpty ? .blank : .text)
        }
    }

    /// Whether the warning's weather starts after `now` (its onset, else its effective time): it is
    /// issued, not in force.
    public static func isComing(_ warning: WeatherWarning, at now: Date) -> Bool {
        (warning.onset ?? warning.effective).map { $0 > now } ?? false
    }

    /// When the warning's weather starts, for one line: "from Thu 06:00" in the city's clock.
    public static func fromWhen(_ warning: WeatherWarning, clock: ClockFormat, l10n: L10n) -> String {
        guard let start = warning.onset ?? warning.effective else { return "" }
        return l10n.format(.warningsFromWhen, clock.dateTime(start, dateTemplate: "EEE"))
    }

    /// When a warning is in force, in the city's clock: "Jan 15 10:00 – Jan 16 04:00" (from its onset
    /// when that is still to come); empty when the service gave no time.
    public static func times(_ warning: WeatherWarning, clock: ClockFormat, l10n: L10n, now: Date? = nil) -> String {
        func at(_ date: Date) -> String { clock.dateTime(date, dateTemplate: "MMMd") }
        let start = now.map { isComing(warning, at: $0) } == true ? warning.onset ?? warning.effective : warning.effective ?? warning.onset
        switch (start, warning.expires) {
        case let (from?, to?): return l10n.format(.warningsTimes, at(from), at(to))
        case let (from?, nil): return l10n.format(.warningsFromUntilLifted, at(from))
        case let (nil, to?): return l10n.format(.warningsUntil, at(to))
        case (nil, nil): return ""
        }
    }

    public static func severityName(_ severity: WeatherWarning.Severity, _ l10n: L10n) -> String {
        switch severity {
        case .extreme: l10n[.warningsSeverityExtreme]
        case .severe: l10n[.warningsSeveritySevere]
        case .moderate: l10n[.warningsSeverityModerate]
        case .minor: l10n[.warningsSeverityMinor]
        case .unknown: l10n[.warningsSeverityUnknown]
        }
    }
}

/// Warnings to show in full, as data: the overlay says them in its state's language.
public struct WarningsShown: Equatable, Sendable {
    /// Those not expired at `now`.
    public let warnings: [WeatherWarning]
    public let city: City
    public let now: Date
    /// The settings' clock and the city's zone, for the times.
    public let clock: UserSettings.Clock
    public let zone: Zone

    public init(warnings: [WeatherWarning], city: City, now: Date, clock: UserSettings.Clock, zone: Zone) {
        self.warnings = warnings
        self.city = city
        self.now = now
        self.clock = clock
        self.zone = zone
    }
}
