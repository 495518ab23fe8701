import Foundation

extension HelpViewModel {
    // MARK: Presenting

    func present(_ state: State) -> HelpState {
        let screen = self.screen.filter { Self.matches($0, state.filter) }
        let global = self.global.filter { Self.matches($0, state.filter) }
        let filtering = state.typing || !state.filter.isEmpty
        let l10n = state.l10n
        return HelpState(
            screen: screen, global: global, allScreen: self.screen, allGlobal: self.global,
            prompt: filtering ? l10n.format(.helpFilterPrompt, state.filter + (state.typing ? "▏" : "")) : nil,
            noMatch: screen.isEmpty && global.isEmpty ? l10n.format(.helpFilterNone, state.filter) : nil,
            footer: l10n[state.typing ? .helpFilterClose : .helpClose], scroll: state.scroll)
    }
}
