import Foundation
import NimbusDomain

extension MapStatsViewModel {
    // MARK: Presenting

    static func present(_ state: State) -> MapStatsState {
        let s = state.statistics, l10n = state.l10n
        return MapStatsState(title: l10n[.debugTitle], lines: [
            l10n.format(.debugHits, l10n.number(s.hits)),
            l10n.format(.debugMisses, l10n.number(s.misses)),
            l10n.format(.debugEvictions, l10n.number(s.evictions)),
            l10n.format(.debugRatio, l10n.number(Int((s.hitRatio * 100).rounded()))),
            l10n.format(.debugCount, l10n.number(s.count), l10n.number(s.countLimit)),
            l10n.format(.debugCost, l10n.number(s.totalCost), l10n.number(s.totalCostLimit)),
            "",
            l10n[.debugClose],
        ])
    }
}
