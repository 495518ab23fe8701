import Foundation
import NimbusDomain
import NimbusLoop

extension WarningsViewModel {
    // MARK: Presenting

    /// What the overlay shows: the text said in the state's language (made again only when the
    /// language changes, not on a scroll), from the line scrolled to.
    func present(_ state: State) -> WarningsOverlayState {
        let shown = self.shown
        let text = Memo(state.l10n, after: self.text) { WarningsText.make(shown, l10n: state.l10n) }
        self.text = text
        return WarningsOverlayState(text: text.value, scroll: state.scroll)
    }
}
