import Foundation
import NimbusDomain

/// What the status line says of a change to the user's data, and of an undo or redo:
/// "Shanghai liked · z undo", "Undone: Shanghai liked · Z redo".
public struct ChangeText {
    let l10n: L10n
    /// A liked city's name as the lists show it (nil: not in the loaded catalogue).
    let cityName: (Int) -> String?

    public init(l10n: L10n, cityName: @escaping (Int) -> String?) {
        self.l10n = l10n
        self.cityName = cityName
    }

    /// The change just saved, with the key that undoes it.
    public func saved(_ change: UserChange) -> String {
        l10n.format(.changeUndoHint, what(change))
    }

    public func outcome(_ outcome: UndoOutcome) -> String {
        switch outcome {
        case .undone(let change): l10n.format(.changeUndone, what(change))
        case .redone(let change): l10n.format(.changeRedone, what(change))
        case .nothingToUndo: l10n[.changeNothingToUndo]
        case .nothingToRedo: l10n[.changeNothingToRedo]
        case .changedElsewhere(let change): l10n.format(.changeElsewhere, what(change))
        case .failed(let change, let reason): l10n.format(.changeFailed, what(change), reason)
        }
    }

    /// Whether `outcome` is an error, which stays on the status line until the next key.
    public static func isError(_ outcome: UndoOutcome) -> Bool {
        switch outcome {
        case .changedElsewhere, .failed: true
        default: false
        }
    }

    /// The change in a few words: "Shanghai liked", "Added “Skyfall” to the wishlist".
    func what(_ change: UserChange) -> String {
        switch change {
        case .liked(let id): l10n.format(.changeLiked, city(id))
        case .unliked(let id): l10n.format(.changeUnliked, city(id))
        case .wishlistAdded(let title): l10n.format(.wishlistAdded, title)
        case .wishlistRemoved(let title): l10n.format(.wishlistRemoved, title)
        case .wishlistCleared(let count): l10n.count(.changeWishlistCleared, count, l10n.number(count))
        case .wishlistImported(let count): l10n.count(.changeWishlistImported, count, l10n.number(count))
        }
    }

    private func city(_ id: Int) -> String { cityName(id) ?? "#\(id)" }
}
