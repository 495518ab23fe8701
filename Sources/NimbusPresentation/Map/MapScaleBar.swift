import Foundation
import NimbusDomain

/// A scale bar: how many columns a round distance spans, and that distance as text ("50 km"), with
/// the shorter round distances it can fall back to when the longest one and its text don't fit.
public struct MapScaleBar: Equatable, Sendable {
    /// One round distance: the columns it spans and its text.
    public struct Step: Equatable, Sendable {
        public let columns: Int
        public let label: String

        public init(columns: Int, label: String) {
            self.columns = columns
            self.label = label
        }
    }

    public let columns: Int
    public let label: String
    /// Every round distance at least two columns long up to this one, longest first (this one first).
    public let steps: [Step]

    public init(columns: Int, label: String, shorter: [Step] = []) {
        self.columns = columns
        self.label = label
        self.steps = [Step(columns: columns, label: label)] + shorter
    }

    /// Equal when they show the same longest distance (the shorter ones follow from it).
    public static func == (l: MapScaleBar, r: MapScaleBar) -> Bool { l.columns == r.columns && l.label == r.label }

    static let kilometresPerMile = 1.609344

    /// The longest round distance (1, 2 or 5 × a power of ten) that fits in `maxColumns`, at least
    /// two columns long, with the shorter ones; nil when none fits.
    public static func make(kilometresPerColumn: Double, maxColumns: Int, units: UnitSystem, l10n: L10n) -> MapScaleBar? {
        guard kilometresPerColumn > 0, kilometresPerColumn.isFinite, maxColumns >= 2 else { return nil }
        let perColumn = units == .metric ? kilometresPerColumn : kilometresPerColumn / kilometresPerMile
        let longest = perColumn * Double(maxColumns)
        var fitting: [Double] = []
        for exponent in -2...5 {
            for mantissa in [1.0, 2.0, 5.0] {
                let distance = mantissa * pow(10, Double(exponent))
                if distance <= longest, distance / perColumn >= 2 { fitting.append(distance) }
            }
        }
        let steps = fitting.reversed().map { distance -> Step in
            let columns = max(2, Int((distance / perColumn).rounded()))
            let amount = distance >= 1 ? l10n.number(Int(distance.rounded())) : decimal(distance, l10n: l10n)
            return Step(columns: columns, label: l10n.format(units == .metric ? .mapUnitKm : .mapUnitMi, amount))
        }
        guard let first = steps.first else { return nil }
        return MapScaleBar(columns: first.columns, label: first.label, shorter: Array(steps.dropFirst()))
    }

    private static func decimal(_ value: Double, l10n: L10n) -> String {
        let separator = l10n.locale.decimalSeparator ?? "."
        let hundredths = Int((value * 100).rounded())
        let text = hundredths % 10 == 0 ? "0\(separator)\(hundredths / 10)" : "0\(separator)" + (hundredths < 10 ? "0" : "") + "\(hundredths)"
        return text
    }
}
