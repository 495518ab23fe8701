import Foundation
import OpenCombineShim
import Synchronization

/// A change the user made to their own data, as the status line names it and `z` undoes it.
public enum UserChange: Equatable, Sendable {
    case liked(cityID: Int)
    case unliked(cityID: Int)
    case wishlistAdded(title: String)
    case wishlistRemoved(title: String)
    case wishlistCleared(count: Int)
    case wishlistImported(count: Int)
    /// A recent search was taken off the list: its text.
    case searchForgotten(query: String)
    /// A film was taken off the recently opened (not off the wishlist): its title.
    case viewedForgotten(title: String)
    /// A setting of `config.toml` changed: its key, and the value the file held before and after, as
    /// the file writes it (nil: not set).
    case setting(key: UserSettings.Key, from: String?, to: String?)
}

/// What `z` (undo) or `Z` (redo) did.
public enum UndoOutcome: Equatable, Sendable {
    case undone(UserChange)
    case redone(UserChange)
    case nothingToUndo
    case nothingToRedo
    /// The data was changed by another process since (the stores are shared): nothing was done, and
    /// the change leaves the history (it can no longer be taken back as it was made).
    case changedElsewhere(UserChange)
    /// The write was refused (disk full, read-only, locked); the history is as it was.
    case failed(UserChange, reason: String)
}

/// The changes made to the user's data while the app runs, newest last, with the ones undone
/// since, for redo (lazygit's `z`/`Z`). Undo and redo apply to the stores, so every screen follows.
public protocol ChangeHistory: AnyObject, Sendable {
    /// Each change as it is saved (not the undos and redos themselves).
    var recorded: AnyPublisher<UserChange, Never> { get }
    func undo() -> UndoOutcome
    func redo() -> UndoOutcome
}

/// The one timeline of undoable changes, whichever store made them (the user database, the
/// settings file): each entry knows how to put its data back, and checks first that the data is
/// still as the change left it. Kept while the app runs; `levels` at most, the oldest go first.
public final class ChangeLog: ChangeHistory, Sendable {
    /// What putting data back did.
    public enum Applied: Sendable, Equatable {
        case applied
        /// The data is no longer as expected: another process changed it since. Nothing was done.
        case changedElsewhere
        case failed(String)
    }

    public struct Entry: Sendable {
        public let change: UserChange
        public let undo: @Sendable () -> Applied
        public let redo: @Sendable () -> Applied

        public init(change: UserChange, undo: @escaping @Sendable () -> Applied, redo: @escaping @Sendable () -> Applied) {
            self.change = change
            self.undo = undo
            self.redo = redo
        }
    }

    /// How many changes are kept.
    public static let levels = 100

    private struct Stacks {
        var done: [Entry] = []
        var undone: [Entry] = []
    }
    private let stacks = Mutex(Stacks())
    /// Sent on the thread that saved the change (the main thread in the app), outside the lock.
    nonisolated(unsafe) private let subject = PassthroughSubject<UserChange, Never>()

    public init() {}

    /// A change just saved: it can be undone, and what was undone before it can no longer be redone.
    public func record(_ entry: Entry) {
        stacks.withLock { stacks in
            stacks.done.append(entry)
            if stacks.done.count > Self.levels { stacks.done.removeFirst(stacks.done.count - Self.levels) }
            stacks.undone.removeAll()
        }
        subject.send(entry.change)
    }

    public var recorded: AnyPublisher<UserChange, Never> { subject.eraseToAnyPublisher() }

    public func undo() -> UndoOutcome {
        step(from: \.done, to: \.undone, by: \.undo, made: UndoOutcome.undone) ?? .nothingToUndo
    }

    public func redo() -> UndoOutcome {
        step(from: \.undone, to: \.done, by: \.redo, made: UndoOutcome.redone) ?? .nothingToRedo
    }

    /// Takes the last entry of one stack, does `action` of it and, when that was done, moves it to
    /// the other stack; when the data was changed elsewhere the entry leaves the history. Nil when
    /// the stack is empty.
    private func step(from: WritableKeyPath<Stacks, [Entry]>, to: WritableKeyPath<Stacks, [Entry]>,
                      by action: KeyPath<Entry, @Sendable () -> Applied>, made: (UserChange) -> UndoOutcome) -> UndoOutcome? {
        guard let entry = stacks.withLock({ $0[keyPath: from].last }) else { return nil }
        switch entry[keyPath: action]() {
        case .applied:
            stacks.withLock { stacks in
                _ = stacks[keyPath: from].popLast()
                stacks[keyPath: to].append(entry)
            }
            return made(entry.change)
        case .changedElsewhere:
            stacks.withLock { _ = $0[keyPath: from].popLast() }
            return .changedElsewhere(entry.change)
        case .failed(let reason):
            return .failed(entry.change, reason: reason)
        }
    }
}
