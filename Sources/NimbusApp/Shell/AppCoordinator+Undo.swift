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
                self.say(self.changeText.saved(change), expires: true)
            }
        }
    }

    func undoLastChange() {
        let outcome = container.userDatabase.changeLog.undo()
        say(changeText.outcome(outcome), expires: !ChangeText.isError(outcome))
    }

    func redoLastChange() {
        let outcome = container.userDatabase.changeLog.redo()
        say(changeText.outcome(outcome, redoing: true), expires: !ChangeText.isError(outcome))
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
