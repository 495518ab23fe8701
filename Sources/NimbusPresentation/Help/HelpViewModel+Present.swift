import Foundation

extension HelpViewModel {
    // MARK: Presenting

    func present(_ state: State) -> HelpState {
        let l10n = state.l10n
        let (entries, globals) = (self.screen, self.global)
        let said = Memo(l10n, after: self.said) {
            Said(screen: entries.map { Self.said($0, in: l10n) }, global: globals.map { Self.said($0, in: l10n) },
                 labels: HelpState.Labels(title: l10n[.helpTitle], screenHeading: l10n[.helpSectionScreen],
                                          globalHeading: l10n[.helpSectionGlobal], emptyPrompt: l10n.format(.helpFilterPrompt, ""),
                                          footers: [l10n[.helpClose], l10n[.helpFilterClose]]))
        }
        self.said = said
        let all = said.value
        let screen = all.screen.filter { Self.matches($0, state.filter) }
        let global = all.global.filter { Self.matches($0, state.filter) }
        let filtering = state.typing || !state.filter.isEmpty
        return HelpState(
            screen: screen, global: global, allScreen: all.screen, allGlobal: all.global,
            prompt: filtering ? l10n.format(.helpFilterPrompt, state.filter + (state.typing ? "▏" : "")) : nil,
            noMatch: screen.isEmpty && global.isEmpty ? l10n.format(.helpFilterNone, state.filter) : nil,
            footer: l10n[state.typing ? .helpFilterClose : .helpClose], scroll: state.scroll, labels: all.labels)
    }

    /// A line in the state's language.
    static func said(_ entry: HelpEntry, in l10n: L10n) -> HelpLine {
        HelpLine(key: entry.key.said(in: l10n), label: entry.label.said(in: l10n))
    }
}
