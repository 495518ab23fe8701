import Foundation

extension HelpViewModel {
    // MARK: Presenting

    func present(_ state: State) -> HelpState {
        let l10n = state.l10n
        let allScreen = self.screen.map { Self.said($0, in: l10n) }
        let allGlobal = self.global.map { Self.said($0, in: l10n) }
        let screen = allScreen.filter { Self.matches($0, state.filter) }
        let global = allGlobal.filter { Self.matches($0, state.filter) }
        let filtering = state.typing || !state.filter.isEmpty
        return HelpState(
            screen: screen, global: global, allScreen: allScreen, allGlobal: allGlobal,
            prompt: filtering ? l10n.format(.helpFilterPrompt, state.filter + (state.typing ? "▏" : "")) : nil,
            noMatch: screen.isEmpty && global.isEmpty ? l10n.format(.helpFilterNone, state.filter) : nil,
            footer: l10n[state.typing ? .helpFilterClose : .helpClose], scroll: state.scroll)
    }

    /// A line in the state's language.
    static func said(_ entry: HelpEntry, in l10n: L10n) -> HelpLine {
        HelpLine(key: entry.key.said(in: l10n), label: entry.label.said(in: l10n))
    }
}
