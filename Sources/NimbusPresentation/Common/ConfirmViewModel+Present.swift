import Foundation

extension ConfirmViewModel {
    // MARK: Presenting

    static func present(_ state: State) -> ConfirmState {
        let l10n = state.l10n
        switch state.question {
        case .deleteAllWishlist(let count):
            return ConfirmState(title: l10n[.wishlistConfirmTitle], question: l10n.count(.wishlistConfirm, count, l10n.number(count)),
                                keys: l10n[.wishlistConfirmKeys], yes: l10n[.hintDeleteAll], no: l10n[.hintBack])
        }
    }
}
