import Foundation
import NimbusDomain
import Synchronization
import CombineSchedulers
@preconcurrency import OpenCombineShim

/// The settings of the app: `config.toml` read once, the command line's and the environment's
/// settings above it, and the choices made while the app runs above all. A change applies at once
/// (published on the caller's thread) and is written in the background: the keys it changed, into
/// the file as it is then (`ConfigFile.save`: in place, locked, atomic). A file that had a problem
/// when it was read is never written.
public final class SettingsStore: SettingsRepository, Sendable {
    private struct State {
        var contents: SettingsContents
        /// Keys changed since the last write began.
        var pending: Set<UserSettings.Key> = []
        /// A write is scheduled and has not yet taken the pending keys.
        var scheduled = false
        /// Writes begun and not yet reported.
        var writing = 0
    }

    private let file: ConfigFile
    private let writable: Bool
    private let state: Mutex<State>
    private let published: CurrentValueSubject<SettingsContents, Never>
    private let io: AnySchedulerOf<DispatchQueue>
    private let deliver: AnySchedulerOf<DispatchQueue>

    /// Reads `file` now.
    /// - Parameters:
    ///   - io: where the file is written (a serial queue of its own in the app; the app's clock in tests).
    ///   - deliver: where the outcome of a write is published (the main queue in the app).
    public init(file: ConfigFile, flags: UserSettings = UserSettings(), environment: [String: String],
                io: AnySchedulerOf<DispatchQueue>, deliver: AnySchedulerOf<DispatchQueue>) {
        self.file = file
        self.io = io
        self.deliver = deliver
        let loaded = file.load()
        writable = loaded.writable
        let contents = SettingsContents(
            layers: SettingsLayers(flags: flags, environment: UserSettings(environment: environment), file: loaded.settings),
            problems: loaded.problems, path: file.url.path)
        state = Mutex(State(contents: contents))
        published = CurrentValueSubject(contents)
    }

    public var current: SettingsContents { state.withLock { $0.contents } }

    public var contents: AnyPublisher<SettingsContents, Never> { published.eraseToAnyPublisher() }

    public func change(save: Bool, _ edit: @escaping @Sendable (inout UserSettings) -> Void) {
        let (contents, schedule) = state.withLock { state -> (SettingsContents, Bool) in
            let before = state.contents.layers.file
            edit(&state.contents.layers.session)
            guard save else { return (state.contents, false) }
            edit(&state.contents.layers.file)
            guard writable else {
                state.contents.save = .notSaved(state.contents.problems.first)
                return (state.contents, false)
            }
            state.pending.formUnion(ConfigFile.keys(changedFrom: before, to: state.contents.layers.file))
            state.contents.save = .saving
            defer { state.scheduled = true }
            return (state.contents, !state.scheduled)
        }
        published.send(contents)
        if schedule { io.schedule { [self] in write() } }
    }

    /// Writes every key changed since the last write, then publishes how it went (on `deliver`).
    private func write() {
        let (settings, keys) = state.withLock { state -> (UserSettings, [UserSettings.Key]) in
            state.scheduled = false
            state.writing += 1
            defer { state.pending = [] }
            return (state.contents.layers.file, UserSettings.Key.allCases.filter(state.pending.contains))
        }
        let outcome: SettingsSave
        switch keys.isEmpty ? .saved : file.save(settings, keys: keys) {
        case .saved: outcome = .saved
        case .notSaved(let problem): outcome = .notSaved(problem)
        }
        deliver.schedule { [self] in
            let contents = state.withLock { state -> SettingsContents in
                // Keys a failed save left unwritten are written with the next change.
                if case .notSaved = outcome { state.pending.formUnion(keys) }
                state.writing -= 1
                // A later change being written says how it went when it is done.
                if state.writing == 0 && !state.scheduled { state.contents.save = outcome }
                return state.contents
            }
            published.send(contents)
        }
    }
}
