import Foundation
import NimbusDomain

/// What the status line says of a change to the user's data, and of an undo or redo:
/// "Shanghai liked · z undo", "Undone: Shanghai liked · Z redo".
public struct ChangeText {
    let l10n: L10n
    /// A liked city's name as the lists show it (nil: not in the loaded catalogue).
    let cityName: (Int) -> String?
    /// Makes a name (a city's, a film's title) fit a number of columns, with an ellipsis; nil: names whole.
    private var shorten: ((String) -> String)?

    public init(l10n: L10n, cityName: @escaping (Int) -> String?) {
        self.l10n = l10n
        self.cityName = cityName
    }

    /// The same words with every name cut by `shorten` (to a number of columns, with an ellipsis), so
    /// that a message too long for a narrow status bar loses the middle of its name before the key
    /// that undoes it ("Added “The Dark Kn…” to the wishlist · z undo").
    public func shorteningNames(_ shorten: @escaping (String) -> String) -> ChangeText {
        var copy = self
        copy.shorten = shorten
        return copy
    }

    /// The change just saved, with the key that undoes it.
    public func saved(_ change: UserChange) -> String {
        l10n.format(.changeUndoHint, what(change))
    }

    /// What an undo (or, `redoing`, a redo) did.
    public func outcome(_ outcome: UndoOutcome, redoing: Bool = false) -> String {
        switch outcome {
        case .undone(let change): l10n.format(.changeUndone, what(change))
        case .redone(let change): l10n.format(.changeRedone, what(change))
        case .nothingToUndo: l10n[.changeNothingToUndo]
        case .nothingToRedo: l10n[.changeNothingToRedo]
        case .changedElsewhere(let change): l10n.format(redoing ? .changeElsewhereRedo : .changeElsewhere, what(change))
        case .failed(let change, let reason): l10n.format(redoing ? .changeFailedRedo : .changeFailed, what(change), reason)
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
        case .wishlistAdded(let title): l10n.format(.wishlistAdded, name(title))
        case .wishlistRemoved(let title): l10n.format(.wishlistRemoved, name(title))
        case .wishlistCleared(let count): l10n.count(.changeWishlistCleared, count, l10n.number(count))
        case .wishlistImported(let count): l10n.count(.changeWishlistImported, count, l10n.number(count))
        case .searchForgotten(let query): l10n.format(.changeSearchForgotten, name(query))
        case .viewedForgotten(let title): l10n.format(.changeViewedForgotten, name(title))
        case .setting(let key, let from, let to): l10n.format(.changeSetting, l10n[key.label], value(key, from), value(key, to))
        }
    }

    /// A value as the file writes it ("imperial", "12", "true"), in the words of the settings box;
    /// not set is `auto` where the locale, the units or the terminal decide, else "not set".
    private func value(_ key: UserSettings.Key, _ text: String?) -> String {
        guard let text else {
            switch key {
            case .units, .temperatureUnit, .windUnit, .theme, .mapStyle: return l10n[.settingsValueAuto]
            case .clock, .mouse, .defaultTab, .home: return l10n[.settingsValueNone]
            }
        }
        switch key {
        case .units, .theme, .mapStyle:
            switch text {
            case "auto": return l10n[.settingsValueAuto]
            case "metric": return l10n[.settingsValueMetric]
            case "imperial": return l10n[.settingsValueImperial]
            case "dark": return l10n[.settingsValueDark]
            case "light": return l10n[.settingsValueLight]
            case "braille": return l10n[.settingsValueBraille]
            case "blocks": return l10n[.settingsValueBlocks]
            default: return text
            }
        case .temperatureUnit: return text == "f" ? "°F" : text == "c" ? "°C" : text
        case .windUnit: return text == "kmh" ? "km/h" : text == "ms" ? "m/s" : text
        case .clock: return l10n.format(.settingsValueHours, text)
        case .mouse: return text == "true" ? l10n[.settingsValueOn] : l10n[.settingsValueOff]
        case .defaultTab: return text
        case .home: return name(Int(text).flatMap(cityName) ?? text)
        }
    }

    private func city(_ id: Int) -> String { name(cityName(id) ?? "#\(id)") }

    private func name(_ text: String) -> String { shorten?(text) ?? text }
}
