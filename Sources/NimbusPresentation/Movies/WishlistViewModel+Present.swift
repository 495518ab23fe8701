import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension WishlistViewModel {
    // MARK: Presenting

    func present(_ state: State) -> WishlistState {
        let l10n = state.l10n
        let dateFormatter = dateFormatter(l10n.language)
        let rows = state.entries.map { e in
            WishlistRow(id: e.id, title: e.movie.title, year: e.movie.year.map(String.init) ?? "",
                        director: e.movie.directors.joined(separator: ", "), added: dateFormatter.string(from: e.addedAt),
                        genres: l10n.genres(e.movie.genres))
        }
        let selection = state.selected.flatMap { id in state.entries.firstIndex { $0.id == id } } ?? 0
        var shown = WishlistState(
            rows: rows, summary: l10n.format(.wishlistSummary, l10n.number(rows.count)),
            emptyMessage: rows.isEmpty ? l10n[.wishlistEmpty] : nil,
            confirmation: state.confirming ? l10n.count(.wishlistConfirm, rows.count, l10n.number(rows.count)) : nil,
            selection: selection, message: state.message.flatMap { Self.text($0, l10n: l10n) })
        shown.importing = state.importing
        return shown
    }

    /// The medium date style of `language`, in the view model's zone.
    private func dateFormatter(_ language: Language) -> DateFormatter {
        dates.withLock { last in
            if let last, last.language == language { return last.formatter }
            let formatter = DateFormatter()
            formatter.locale = language.locale
            formatter.timeZone = timeZone
            formatter.dateStyle = .medium
            formatter.timeStyle = .none
            last = (language, formatter)
            return formatter
        }
    }

    static func text(_ message: Message, l10n: L10n) -> String? {
        switch message {
        case .failed(let error): return l10n.describeWishlistFailure(error)
        case .notice(let status): return UserDataNotice.message(status, l10n: l10n)
        case .imported(let report): return leftOut(report, l10n: l10n)
        }
    }

    /// What an import did not add: "2 already saved · 1 not found: Nope (1999)".
    static func leftOut(_ report: WishlistImportReport, l10n: L10n) -> String {
        var parts: [String] = []
        if report.already > 0 { parts.append(l10n.format(.wishlistImportAlready, l10n.number(report.already))) }
        if !report.unmatched.isEmpty {
            parts.append(l10n.format(.wishlistImportNotFound, l10n.number(report.unmatched.count),
                                     report.unmatched.joined(separator: ", ")))
        }
        return parts.isEmpty ? l10n[.wishlistImportNoFilms] : parts.joined(separator: " · ")
    }

    /// Why an import saved nothing, naming the file as it was typed.
    static func refusalText(_ refusal: Refusal, l10n: L10n) -> String {
        switch refusal {
        case .nothingNew(let report):
            return l10n.format(.wishlistImportNothing, leftOut(report, l10n: l10n))
        case .failed(let path, let error):
            let file = path  // the screen and the status line make it safe to draw
            switch error {
            case .file(.unreadable(let why)): return l10n.format(.wishlistImportUnreadable, file, why)
            case .file(.tooLarge(let limit)): return l10n.format(.wishlistImportTooLarge, file, l10n.number(limit / (1024 * 1024)))
            case .file(.tooManyRows(let limit)): return l10n.format(.wishlistImportTooManyRows, file, l10n.number(limit))
            case .file(.notText): return l10n.format(.wishlistImportNotText, file)
            case .file(.badFormat(.jsonUnreadable)): return l10n.format(.wishlistImportJSONUnreadable, file)
            case .file(.badFormat(.jsonNotAList)): return l10n.format(.wishlistImportJSONNotList, file)
            case .file(.badFormat(.csvNoTitle)): return l10n.format(.wishlistImportCSVNoTitle, file)
            case .file(.badFormat(.csvTooManyFields)): return l10n.format(.wishlistImportCSVTooManyFields, file)
            case .catalogueUnreadable: return l10n[.wishlistImportCatalogue]
            case .notSaved(let reason): return l10n.format(.wishlistImportNotSaved, reason)
            }
        }
    }
}
