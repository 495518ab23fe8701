import Foundation
import OpenCombineShim

/// A change the user made to their own data, as the status line names it and `z` undoes it.
public enum UserChange: Equatable, Sendable {
    case liked(cityID: Int)
    case unliked(cityID: Int)
    case wishlistAdded(title: String)
    case wishlistRemoved(title: String)
    case wishlistCleared(count: Int)
    case wishlistImported(count: Int)
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
