import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers

/// One saved film, formatted.
public struct WishlistRow: Equatable, Sendable, Identifiable {
    public let id: MovieID
    public let title: String
    public let year: String
    public let director: String
    public let added: String
    /// Genres in the UI language (a wide terminal's extra column).
    public var genres: String = ""
}

/// What the wishlist screen shows.
public struct WishlistState: Equatable, Sendable {
    public let rows: [WishlistRow]
    public let summary: String
    /// Shown instead of rows when nothing is saved.
    public let emptyMessage: String?
    /// The "delete all?" question, while it is asked.
    public let confirmation: String?
}

public enum WishlistRoute: Equatable, Sendable {
    case showDetail(MovieSummary)
}

/// The saved films: open, delete one, delete all after a confirmation.
public final class WishlistViewModel {
    public struct Input {
        public let appeared: AnyPublisher<Void, Never>
        public let rowOpened: AnyPublisher<Int, Never>
        public let rowDeleted: AnyPublisher<Int, Never>
        public let deleteAllRequested: AnyPublisher<Void, Never>
        /// The answer to the confirmation: true deletes everything.
        public let deleteAllAnswered: AnyPublisher<Bool, Never>
        public init(appeared: AnyPublisher<Void, Never>, rowOpened: AnyPublisher<Int, Never>,
                    rowDeleted: AnyPublisher<Int, Never>, deleteAllRequested: AnyPublisher<Void, Never>,
                    deleteAllAnswered: AnyPublisher<Bool, Never>) {
            self.appeared = appeared
            self.rowOpened = rowOpened
            self.rowDeleted = rowDeleted
            self.deleteAllRequested = deleteAllRequested
            self.deleteAllAnswered = deleteAllAnswered
        }
    }

    public struct Output {
        public let state: AnyPublisher<WishlistState, Never>
        public let route: AnyPublisher<WishlistRoute, Never>
        public let message: AnyPublisher<String, Never>
    }

    private let wishlist: WishlistUseCase
    private let l10n: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private var cancellables: Set<AnyCancellable> = []
    private let stateSubject = PassthroughSubject<WishlistState, Never>()
    private let routeSubject = PassthroughSubject<WishlistRoute, Never>()
    private let messageSubject = PassthroughSubject<String, Never>()
    /// The store's latest contents: rows are always derived from these, never edited here.
    private var entries: [WishlistEntry] = []
    private var confirming = false
    private let dateFormatter: DateFormatter

    private let dataStatus: UserDataStatus

    /// `dataStatus` says whether the wishlist is being saved; anything but `.saved` is told when the tab first shows.
    public init(wishlist: WishlistUseCase, l10n: L10n, scheduler: AnySchedulerOf<DispatchQueue>,
                timeZone: TimeZone = .current, dataStatus: UserDataStatus = .saved) {
        self.wishlist = wishlist
        self.dataStatus = dataStatus
        self.l10n = l10n
        self.scheduler = scheduler
        dateFormatter = DateFormatter()
        dateFormatter.locale = l10n.locale
        dateFormatter.timeZone = timeZone
        dateFormatter.dateStyle = .medium
        dateFormatter.timeStyle = .none
    }

    public func transform(input: Input) -> Output {
        let wishlist = self.wishlist
        // From the first appearance on, the rows follow the store: what is shown is what is saved.
        input.appeared
            .first()
            .map { _ in wishlist.contents }
            .switchToLatest()
            .sink { [weak self] entries in
                guard let self else { return }
                self.entries = entries
                if self.confirming, entries.isEmpty { self.confirming = false }
                self.emit()
            }
            .store(in: &cancellables)
        input.appeared
            .first()
            .sink { [weak self] in
                guard let self, let notice = UserDataNotice.message(self.dataStatus, l10n: self.l10n) else { return }
                self.messageSubject.send(notice)
            }
            .store(in: &cancellables)
        input.rowOpened
            .sink { [weak self] index in
                guard let self, self.entries.indices.contains(index) else { return }
                self.routeSubject.send(.showDetail(self.entries[index].movie))
            }
            .store(in: &cancellables)
        input.rowDeleted
            .sink { [weak self] in self?.delete($0) }
            .store(in: &cancellables)
        input.deleteAllRequested
            .sink { [weak self] in
                guard let self, !self.entries.isEmpty, !self.confirming else { return }
                self.confirming = true
                self.emit()
            }
            .store(in: &cancellables)
        input.deleteAllAnswered
            .sink { [weak self] in self?.answer($0) }
            .store(in: &cancellables)
        return Output(state: stateSubject.removeDuplicates().eraseToAnyPublisher(),
                      route: routeSubject.eraseToAnyPublisher(), message: messageSubject.eraseToAnyPublisher())
    }

    /// Removes the film on row `index`; the rows change when the store publishes what it saved.
    private func delete(_ index: Int) {
        guard entries.indices.contains(index), !confirming else { return }
        let entry = entries[index]
        do {
            try wishlist.remove(entry.id)
            messageSubject.send(l10n.format(.wishlistDeleted, entry.movie.title))
        } catch {
            messageSubject.send(l10n.describeWishlistFailure(error))
        }
    }

    private func answer(_ yes: Bool) {
        guard confirming else { return }
        confirming = false
        if yes {
            do {
                try wishlist.removeAll()
                messageSubject.send(l10n[.wishlistCleared])
            } catch {
                messageSubject.send(l10n.describeWishlistFailure(error))
            }
        }
        emit()
    }

    private func emit() {
        let rows = entries.map { e in
            WishlistRow(id: e.id, title: e.movie.title, year: e.movie.year.map(String.init) ?? "",
                        director: e.movie.directors.joined(separator: ", "), added: dateFormatter.string(from: e.addedAt),
                        genres: l10n.genres(e.movie.genres))
        }
        stateSubject.send(WishlistState(
            rows: rows, summary: l10n.format(.wishlistSummary, l10n.number(rows.count)),
            emptyMessage: rows.isEmpty ? l10n[.wishlistEmpty] : nil,
            confirmation: confirming ? l10n.format(.wishlistConfirm, l10n.number(rows.count)) : nil))
    }
}
