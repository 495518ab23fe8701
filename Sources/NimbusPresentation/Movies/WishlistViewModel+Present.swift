import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension WishlistViewModel {
    // MARK: Presenting

    func present(_ state: State) -> WishlistState {
        let rows = state.entries.map { e in
            WishlistRow(id: e.id, title: e.movie.title, year: e.movie.year.map(String.init) ?? "",
                        director: e.movie.directors.joined(separator: ", "), added: dateFormatter.string(from: e.addedAt),
                        genres: l10n.genres(e.movie.genres))
        }
        let selection = state.selected.flatMap { id in state.entries.firstIndex { $0.id == id } } ?? 0
        return WishlistState(
            rows: rows, summary: l10n.format(.wishlistSummary, l10n.number(rows.count)),
            emptyMessage: rows.isEmpty ? l10n[.wishlistEmpty] : nil,
            confirmation: state.confirming ? l10n.count(.wishlistConfirm, rows.count, l10n.number(rows.count)) : nil,
            selection: selection, message: state.message.flatMap(text))
    }

    func text(_ message: Message) -> String? {
        switch message {
        case .failed(let error): return l10n.describeWishlistFailure(error)
        case .notice(let status): return UserDataNotice.message(status, l10n: l10n)
        }
    }
}
