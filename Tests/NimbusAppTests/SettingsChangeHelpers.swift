import NimbusData
import NimbusDomain
@testable import NimbusApp

/// The settings store as the tests of saving read it: a change made as the settings screen makes
/// it, and how its save went. The containers of these tests run on an immediate scheduler, so the
/// save has been written (or refused) when `changeSettings` returns.
extension AppDIContainer {
    /// Changes the settings as the settings screen does; returns whether the change was saved.
    @discardableResult
    func changeSettings(_ edit: (inout UserSettings) -> Void) -> Bool {
        nonisolated(unsafe) let edit = edit
        withoutActuallyEscaping(edit) { edit in
            nonisolated(unsafe) let edit = edit
            settings.change(save: true) { edit(&$0) }
        }
        return settings.current.save == .saved
    }

    /// Why the last change was not saved (nil after a save).
    var saveProblem: SettingsProblem? {
        if case .notSaved(let problem) = settings.current.save { return problem }
        return nil
    }

    /// What was wrong with the file when it was read.
    var configProblems: [SettingsProblem] { settings.current.problems }

    /// What the file holds as the app knows it (its good values, and the changes made since).
    var savedSettings: UserSettings { settings.current.layers.file }
}
