import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
@preconcurrency import OpenCombineShim

/// Changes to the user's data said on the status line with the key that undoes them, and `z` / `Z`
/// (lazygit's undo and redo), which apply to the user database, so every screen follows.
extension AppCoordinator {
    /// How long a change's message stays when no key clears it first.
    static let changeMessageDuration = DispatchQueue.SchedulerTimeType.Stride.seconds(4)

    private var changeText: ChangeText {
        let container = self.container
        let language = l10n.language
        return ChangeText(l10n: l10n) { id in container.city(id: id).map { CityNameChoice.name($0, language: language) } }
    }

    /// Every change saved through the user database ("Shanghai liked · z undo"), whichever screen made it.
    func watchChanges() {
        changeRecords = container.userDatabase.changeLog.recorded.sink { [weak self] change in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.say(change: { $0.saved(change) }, expires: true)
            }
        }
    }

    func undoLastChange() {
        let outcome = container.userDatabase.changeLog.undo()
        say(change: { $0.outcome(outcome) }, expires: !ChangeText.isError(outcome))
    }

    func redoLastChange() {
        let outcome = container.userDatabase.changeLog.redo()
        say(change: { $0.outcome(outcome, redoing: true) }, expires: !ChangeText.isError(outcome))
    }

    /// Says what a change, an undo or a redo did, in `words`, which the status line makes again
    /// with shorter names when the bar is too narrow for them (see `fitted`).
    private func say(change words: @escaping (ChangeText) -> String, expires: Bool) {
        say(words(changeText), expires: expires)
        changeWords = (statusMessage ?? "", words)
    }

    /// The status line's message for a bar `columns` wide: a change's words made to fit.
    func statusMessage(columns: Int) -> String? {
        guard let message = statusMessage else { return nil }
        guard let (said, words) = changeWords, said == message, DisplayWidth.of(message) > columns else { return message }
        return Self.fitted(words, text: changeText, columns: columns)
    }

    /// The fewest columns a name is cut to before the words around it are.
    static let shortestName = 4

    /// `words` in at most `columns`, keeping the key that undoes or redoes the change (their last
    /// " · " part): whole when they fit; else with each name cut, with an ellipsis, as little as
    /// makes them fit (not below `shortestName` columns); else, the names cut so, with the words
    /// before the key cut at their end.
    static func fitted(_ words: (ChangeText) -> String, text: ChangeText, columns: Int) -> String {
        func said(names: Int?) -> String {
            DisplayWidth.sanitize(words(names.map { n in text.shorteningNames { DisplayWidth.truncate($0, to: n) } } ?? text))
        }
        let whole = said(names: nil)
        guard DisplayWidth.of(whole) > columns else { return whole }
        // The widest names that fit: the message only gets shorter as they do.
        var (low, high, best) = (shortestName, DisplayWidth.of(whole), nil as String?)
        while low <= high {
            let mid = (low + high) / 2
            let shorter = said(names: mid)
            if DisplayWidth.of(shorter) <= columns {
                best = shorter
                low = mid + 1
            } else {
                high = mid - 1
            }
        }
        if let best { return best }
        let short = said(names: shortestName)
        guard let cut = short.range(of: " · ", options: .backwards) else { return DisplayWidth.truncate(short, to: columns) }
        let key = String(short[cut.lowerBound...])
        let room = columns - DisplayWidth.of(key)
        guard room >= shortestName else { return DisplayWidth.truncate(short, to: columns) }
        return DisplayWidth.truncate(String(short[..<cut.lowerBound]), to: room) + key
    }

    /// Puts `message` on the status line until the next key, and, when it `expires`, for a few
    /// seconds at most (an error stays until the next key, so it is read).
    func say(_ message: String, expires: Bool) {
        statusMessage = DisplayWidth.sanitize(message)
        needsDisplay.set()
        messageExpiry?.cancel()
        messageExpiry = nil
        guard expires else { return }
        let scheduler = container.configuration.scheduler
        let shown = statusMessage
        // Fires once: the timer is cancelled on its first turn, whether or not a key took the message first.
        messageExpiry = scheduler.schedule(after: scheduler.now.advanced(by: Self.changeMessageDuration),
                                           interval: Self.changeMessageDuration) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.messageExpiry?.cancel()
                self.messageExpiry = nil
                guard self.statusMessage == shown else { return }
                self.statusMessage = nil
                self.needsDisplay.set()
            }
        }
    }
}
