import Foundation
import NimbusDomain

/// A scale bar: how many columns a round distance spans, and that distance as text ("50 km").
public struct MapScaleBar: Equatable, Sendable {
    public let columns: Int
    public let label: String

    public init(columns: Int, label: String) {
        self.columns = columns
        self.label = label
    }

    static let kilometresPerMile = 1.609344

    /// The longest round distance (1, 2 or 5 × a power of ten) that fits in `maxColumns`, at least
    /// two columns long; nil when none fits.
    public static func make(kilometresPerColumn: Double, maxColumns: Int, units: UnitSystem, l10n: L10n) -> MapScaleBar? {
        guard kilometresPerColumn > 0, kilometresPerColumn.isFinite, maxColumns >= 2 else { return nil }
        let perColumn = units == .metric ? kilometresPerColumn : kilometresPerColumn / kilometresPerMile
        let longest = perColumn * Double(maxColumns)
        var best: Double?
        for exponent in -2...5 {
            for mantissa in [1.0, 2.0, 5.0] {
                let distance = mantissa * pow(10, Double(exponent))
                if distance <= longest, distance / perColumn >= 2 { best = distance }
            }
        }
        guard let distance = best else { return nil }
        let columns = max(2, Int((distance / perColumn).rounded()))
        let amount = distance >= 1 ? l10n.number(Int(distance.rounded())) : decimal(distance, l10n: l10n)
        let label = l10n.format(units == .metric ? .mapUnitKm : .mapUnitMi, amount)
        return MapScaleBar(columns: columns, label: label)
    }

    private static func decimal(_ value: Double, l10n: L10n) -> String {
        let separator = l10n.locale.decimalSeparator ?? "."
        let hundredths = Int((value * 100).rounded())
        let text = hundredths % 10 == 0 ? "0\(separator)\(hundredths / 10)" : "0\(separator)" + (hundredths < 10 ? "0" : "") + "\(hundredths)"
        return text
    }
}
