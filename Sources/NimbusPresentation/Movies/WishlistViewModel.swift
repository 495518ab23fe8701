import Foundation
import Synchronization
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

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
    /// The selected row (0 when there are none).
    public var selection: Int = 0
    /// What the last action did or why it failed ("Deleted “Alien”"), until the next one.
    public var message: String?
    /// The import's path field is open: keys are its text.
    public var importing = false
    /// There are films to open and delete.
    public var hasRows: Bool { !rows.isEmpty }
}

public enum WishlistRoute: Equatable, Sendable {
    case showDetail(MovieSummary)
    /// Ask "delete all N?" over the list; the answer comes back as `Event.deleteAllAnswered`.
    case confirmDeleteAll(Int)
    /// Say on the status line, until the next key, why an import saved nothing.
    case tell(String)
}

/// The saved films: open, delete one, delete all after a confirmation, import a CSV or JSON file.
public final class WishlistViewModel {
    /// What the user does on the tab, sent through one stream.
    public enum Event: Equatable, Sendable {
        case appeared
        /// The row the selection moved to, the row opened, the row deleted.
        case rowSelected(Int), rowOpened(Int), rowDeleted(Int)
        case deleteAllRequested
        /// The answer to the confirmation: true deletes everything.
        case deleteAllAnswered(Bool)
        /// `i` opens the import's path field; Esc closes it; Enter imports the file it names.
        case importRequested, importCancelled
        case importSubmitted(String)
    }

    public struct Input {
        public let events: AnyPublisher<Event, Never>
        public init(events: AnyPublisher<Event, Never>) {
            self.events = events
        }
    }

    public struct Output {
        public let state: AnyPublisher<WishlistState, Never>
        public let route: AnyPublisher<WishlistRoute, Never>
    }

    public struct State: Equatable {
        /// The language the screen speaks (the one the view model was made in).
        var l10n: L10n = .bundled(.en)
        /// The store's latest contents: rows are always derived from these, never edited here.
        var entries: [WishlistEntry] = []
        /// The store has answered (before, the tab has nothing to show).
        var loaded = false
        var appearedBefore = false
        var confirming = false
        var selected: MovieID?
        var message: Message?
        /// The import's path field is open.
        var importing = false
    }

    /// What the screen says until the next action: a removal that failed, or how the data is kept
    /// (a removal that is saved is said on the status line).
    /// An import that added films says on the status line how many (as every change does); what it
    /// did not add is said here.
    public enum Message: Equatable {
        case failed(WishlistError), notice(UserDataStatus), imported(WishlistImportReport)
    }

    public enum Action: Equatable {
        case appeared
        case contents([WishlistEntry])
        case selected(Int), opened(Int), deleteRow(Int), deleteAllRequested, answered(Bool)
        /// What a removal came to.
        case done(Message)
        case importRequested, importCancelled, importSubmitted(String)
        /// What an import came to.
        case imported(WishlistImportReport), importFailed(path: String, WishlistImportError)
    }

    public enum Effect: Equatable {
        /// Follow the store's contents from now on.
        case observe
        case remove(WishlistEntry)
        case removeAll
        case open(MovieSummary)
        case ask(count: Int)
        case importFile(String)
        /// Why an import saved nothing, for the status line, in the state's language.
        case tell(Refusal, in: L10n)
    }

    /// Why an import saved nothing.
    public enum Refusal: Equatable {
        case failed(path: String, WishlistImportError)
        /// The file was read, and none of its films was new.
        case nothingNew(WishlistImportReport)
    }

    private let wishlist: WishlistUseCase
    private let importer: WishlistImportUseCase?
    /// The language of the first state.
    private let firstLanguage: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>
    let timeZone: TimeZone
    /// The dates' formatter for the last language presented (made again only when it changes).
    let dates: Mutex<(language: Language, formatter: DateFormatter)?> = Mutex(nil)
    private let dataStatus: UserDataStatus

    /// `dataStatus` says whether the wishlist is being saved; anything but `.saved` is told when the tab first shows.
    /// `importer` nil: `i` opens no field (nothing to import with).
    public init(wishlist: WishlistUseCase, importer: WishlistImportUseCase? = nil, l10n: L10n,
                scheduler: AnySchedulerOf<DispatchQueue>, timeZone: TimeZone = .current, dataStatus: UserDataStatus = .saved) {
        self.wishlist = wishlist
        self.importer = importer
        self.dataStatus = dataStatus
        self.firstLanguage = l10n
        self.scheduler = scheduler
        self.timeZone = timeZone
    }

    /// The action an event is.
    static func action(_ event: Event) -> Action {
        switch event {
        case .appeared: .appeared
        case .rowSelected(let row): .selected(row)
        case .rowOpened(let row): .opened(row)
        case .rowDeleted(let row): .deleteRow(row)
        case .deleteAllRequested: .deleteAllRequested
        case .deleteAllAnswered(let yes): .answered(yes)
        case .importRequested: .importRequested
        case .importCancelled: .importCancelled
        case .importSubmitted(let path): .importSubmitted(path)
        }
    }

    public func transform(input: Input) -> Output {
        let actions = merge(
            input.events.map(Self.action).eraseToAnyPublisher())
        var initial = State(l10n: firstLanguage)
        if dataStatus != .saved { initial.message = .notice(dataStatus) }
        let loop = EffectRunner.run(initial: initial, actions: actions, scheduler: scheduler, reduce: Self.reduce, perform: perform)
        let state = loop.state
            .filter(\.loaded)
            .map { [self] in present($0) }
            .removeDuplicates()
            .eraseToAnyPublisher()
        return Output(state: state, route: loop.route)
    }

    // MARK: Reduce

    static func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .appeared:
            // From the first appearance on, the rows follow the store: what is shown is what is saved.
            // A notice about the data is told on that first appearance only.
            defer { state.appearedBefore = true }
            if state.appearedBefore, case .notice? = state.message { state.message = nil }
            return state.appearedBefore ? [] : [.observe]
        case .contents(let entries):
            // A deleted film's row goes; the selection stays on the row that takes its place.
            if let selected = state.selected, !entries.contains(where: { $0.id == selected }),
               let index = state.entries.firstIndex(where: { $0.id == selected }) {
                state.selected = entries.isEmpty ? nil : entries[min(index, entries.count - 1)].id
            }
            state.entries = entries
            state.loaded = true
            if state.confirming, entries.isEmpty { state.confirming = false }
            return []
        case .selected(let index):
            state.message = nil
            if state.entries.indices.contains(index) { state.selected = state.entries[index].id }
            return []
        case .opened(let index):
            state.message = nil
            guard state.entries.indices.contains(index), !state.confirming else { return [] }
            state.selected = state.entries[index].id
            return [.open(state.entries[index].movie)]
        case .deleteRow(let index):
            state.message = nil
            guard state.entries.indices.contains(index), !state.confirming else { return [] }
            // The rows change when the store publishes what it saved.
            return [.remove(state.entries[index])]
        case .deleteAllRequested:
            state.message = nil
            guard !state.entries.isEmpty, !state.confirming, !state.importing else { return [] }
            state.confirming = true
            return [.ask(count: state.entries.count)]
        case .answered(let yes):
            guard state.confirming else { return [] }
            state.confirming = false
            return yes ? [.removeAll] : []
        case .done(let message):
            state.message = message
            return []
        case .importRequested:
            guard !state.confirming else { return [] }
            state.message = nil
            state.importing = true
            return []
        case .importCancelled:
            state.importing = false
            return []
        case .importSubmitted(let path):
            let path = path.trimmingCharacters(in: .whitespaces)
            guard state.importing, !path.isEmpty else { return [] }
            state.importing = false
            return [.importFile(path)]
        case .imported(let report):
            // Films added are one change, said on the status line with its undo key; what was left
            // out is said here. Nothing added is said on the status line.
            guard report.added > 0 else { return [.tell(.nothingNew(report), in: state.l10n)] }
            state.message = report.already > 0 || !report.unmatched.isEmpty ? .imported(report) : nil
            return []
        case .importFailed(let path, let error):
            return [.tell(.failed(path: path, error), in: state.l10n)]
        }
    }

    // MARK: Effects

    private func perform(_ effect: Effect) -> Work<Action, WishlistRoute> {
        let wishlist = self.wishlist
        switch effect {
        case .observe:
            return .run(wishlist.contents.map(Action.contents).eraseToAnyPublisher(), id: "store", immediate: true)
        case .remove(let entry):
            return .answer {
                do {
                    try wishlist.remove(entry.id)
                    return nil
                } catch {
                    return .done(.failed((error as? WishlistError) ?? .storage))
                }
            }
        case .removeAll:
            return .answer {
                do {
                    try wishlist.removeAll()
                    return nil
                } catch {
                    return .done(.failed((error as? WishlistError) ?? .storage))
                }
            }
        case .open(let movie):
            return .route(.showDetail(movie))
        case .ask(let count):
            return .route(.confirmDeleteAll(count))
        case .importFile(let path):
            guard let importer else { return .none }
            return .answer {
                do {
                    return .imported(try importer.execute(path: path))
                } catch {
                    return .importFailed(path: path, (error as? WishlistImportError) ?? .notSaved("\(error)"))
                }
            }
        case .tell(let refusal, let l10n):
            return .route(.tell(Self.refusalText(refusal, l10n: l10n)))
        }
    }
}
