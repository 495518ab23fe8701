import Foundation
import NimbusDomain
import Synchronization
import CombineSchedulers
@preconcurrency import OpenCombineShim

/// The settings of the app: `config.toml` read once, the command line's and the environment's
/// settings above it, and the choices made while the app runs above all. A change applies at once
/// (published on the caller's thread) and is written in the background: the keys it changed, into
/// the file as it is then (`ConfigFile.save`: in place, locked, atomic). A file that had a problem
/// when it was read is never written. Each saved change goes to the change log, whose undo puts the
/// keys it changed back, in the file and in this run, only where the file still holds what this
/// process last wrote there (else another process or an editor changed them since).
public final class SettingsStore: SettingsRepository, Sendable {
    private struct State {
        var contents: SettingsContents
        /// Keys changed since the last write began.
        var pending: Set<UserSettings.Key> = []
        /// The changes since the last write began: the keys of each, by its number.
        var pendingChanges: [Int: [UserSettings.Key]] = [:]
        /// The number of the next change.
        var nextChange = 0
        /// A write is scheduled and has not yet taken the pending keys.
        var scheduled = false
        /// Writes begun and not yet reported.
        var writing = 0
    }

    private let file: ConfigFile
    private let writable: Bool
    private let state: Mutex<State>
    /// What the file holds as this process last read or wrote it, and the bytes of each change that
    /// was written on its own. Held while the file is written, so that a write and an undo never
    /// cross (always taken before `state`).
    private let disk: Mutex<Disk>
    private struct Disk {
        var settings: UserSettings
        /// Each change (by its number) that a write wrote alone: the file before and after.
        var alone: [Int: ConfigFile.Written] = [:]
    }
    private let changeLog: ChangeLog?
    private let published: CurrentValueSubject<SettingsContents, Never>
    private let io: AnySchedulerOf<DispatchQueue>
    private let deliver: AnySchedulerOf<DispatchQueue>

    /// Reads `file` now.
    /// - Parameters:
    ///   - io: where the file is written (a serial queue of its own in the app; the app's clock in tests).
    ///   - deliver: where the outcome of a write is published (the main queue in the app).
    public init(file: ConfigFile, flags: UserSettings = UserSettings(), environment: [String: String],
                io: AnySchedulerOf<DispatchQueue>, deliver: AnySchedulerOf<DispatchQueue>, changeLog: ChangeLog? = nil) {
        self.file = file
        self.changeLog = changeLog
        self.io = io
        self.deliver = deliver
        let loaded = file.load()
        writable = loaded.writable
        let contents = SettingsContents(
            layers: SettingsLayers(flags: flags, environment: UserSettings(environment: environment), file: loaded.settings),
            problems: loaded.problems, path: file.url.path)
        state = Mutex(State(contents: contents))
        disk = Mutex(Disk(settings: loaded.settings))
        published = CurrentValueSubject(contents)
    }

    public var current: SettingsContents { state.withLock { $0.contents } }

    public var contents: AnyPublisher<SettingsContents, Never> { published.eraseToAnyPublisher() }

    public func change(save: Bool, _ edit: @escaping @Sendable (inout UserSettings) -> Void) {
        let (contents, schedule, made) = state.withLock { state -> (SettingsContents, Bool, Made?) in
            let before = state.contents.layers
            edit(&state.contents.layers.session)
            guard save else { return (state.contents, false, nil) }
            edit(&state.contents.layers.file)
            guard writable else {
                state.contents.save = .notSaved(state.contents.problems.first)
                return (state.contents, false, nil)
            }
            let keys = ConfigFile.keys(changedFrom: before.file, to: state.contents.layers.file)
            state.pending.formUnion(keys)
            state.contents.save = .saving
            defer { state.scheduled = true }
            guard !keys.isEmpty else { return (state.contents, !state.scheduled, nil) }
            let number = state.nextChange
            state.nextChange += 1
            state.pendingChanges[number] = keys
            return (state.contents, !state.scheduled, Made(number: number, keys: keys, before: before, after: state.contents.layers))
        }
        published.send(contents)
        if schedule { io.schedule { [self] in write() } }
        if let made, let changeLog { record(made, in: changeLog) }
    }

    /// A saved change, as undo puts it back: the keys of the file it changed, and the layers before and after.
    private struct Made {
        let number: Int
        let keys: [UserSettings.Key]
        let before: SettingsLayers
        let after: SettingsLayers
    }

    /// `made` on the change log, named by the first key it changed (the units, when a units change
    /// also unset the temperature and wind units).
    private func record(_ made: Made, in changeLog: ChangeLog) {
        let key = made.keys[0]
        let change = UserChange.setting(key: key, from: made.before.file.text(of: key), to: made.after.file.text(of: key))
        changeLog.record(ChangeLog.Entry(
            change: change,
            undo: { [weak self] in self?.put(made, back: true) ?? .failed("closed") },
            redo: { [weak self] in self?.put(made, back: false) ?? .failed("closed") }))
    }

    /// Puts `made`'s keys `back` as they were before it (else as it left them), in this run and in
    /// the file (written now, on the caller's thread), if this run still has them as the other side
    /// and the file still holds what this process last wrote or read there; else nothing is done.
    /// A change written on its own whose file is still byte for byte as its write left it gets the
    /// file's bytes back; else its keys' lines are set (the others kept as they are). Publishes the
    /// settings it leaves.
    private func put(_ made: Made, back: Bool) -> ChangeLog.Applied {
        let keys = made.keys
        let (target, expected) = back ? (made.before, made.after) : (made.after, made.before)
        let (applied, contents) = disk.withLock { disk -> (ChangeLog.Applied, SettingsContents?) in
            let file = state.withLock { $0.contents.layers.file }
            guard Self.same(keys, file, expected.file) else { return (.changedElsewhere, nil) }
            var written = file
            written.take(keys, from: target.file)
            // A file the change made (there was none) is removed by its undo and made again by its redo.
            let bytes = disk.alone[made.number].map { w -> (Data?, Data?) in back ? (w.after, w.before) : (w.before, w.after) }
            switch bytes.map({ self.file.replace($0.0, with: $0.1) }) {
            case .replaced?:
                break
            case .notSaved(let problem)?:
                return (.failed(problem.map(\.description) ?? "\(SettingsProblem.fileName) not saved"), nil)
            case .differs?, nil:
                let found = self.file.load()
                guard found.problems.isEmpty, Self.same(keys, found.settings, disk.settings) else { return (.changedElsewhere, nil) }
                // A file that holds them already (their write had not run) is left as it is, byte for byte.
                if !Self.same(keys, found.settings, written), case .notSaved(let problem) = self.file.save(written, keys: keys) {
                    return (.failed(problem.map(\.description) ?? "\(SettingsProblem.fileName) not saved"), nil)
                }
            }
            disk.settings.take(keys, from: written)
            let contents = state.withLock { state -> SettingsContents in
                state.contents.layers.file.take(keys, from: target.file)
                state.contents.layers.session.take(keys, from: target.session)
                state.pending.subtract(keys)
                state.pendingChanges[made.number] = nil
                if state.writing == 0 && !state.scheduled { state.contents.save = .saved }
                return state.contents
            }
            return (.applied, contents)
        }
        if let contents { published.send(contents) }
        return applied
    }

    /// Whether `a` and `b` hold the same for each of `keys`, as the file writes them.
    private static func same(_ keys: [UserSettings.Key], _ a: UserSettings, _ b: UserSettings) -> Bool {
        Set(ConfigFile.keys(changedFrom: a, to: b)).isDisjoint(with: keys)
    }

    /// Writes every key changed since the last write, then publishes how it went (on `deliver`).
    private func write() {
        let (keys, outcome) = disk.withLock { disk -> ([UserSettings.Key], SettingsSave) in
            let (settings, keys, changes) = state.withLock { state -> (UserSettings, [UserSettings.Key], [Int: [UserSettings.Key]]) in
                state.scheduled = false
                state.writing += 1
                defer {
                    state.pending = []
                    state.pendingChanges = [:]
                }
                return (state.contents.layers.file, UserSettings.Key.allCases.filter(state.pending.contains), state.pendingChanges)
            }
            guard !keys.isEmpty else { return (keys, .saved) }
            switch file.write(settings, keys: keys) {
            case (.saved, let written):
                disk.settings.take(keys, from: settings)
                // One change, and only its keys (none left over from a failed write): its bytes.
                if changes.count == 1, let (change, own) = changes.first, Set(own) == Set(keys), let written {
                    disk.alone[change] = written
                    // The change log keeps no more changes than this; older bytes are never put back.
                    disk.alone = disk.alone.filter { $0.key > change - ChangeLog.levels }
                }
                return (keys, .saved)
            case (.notSaved(let problem), _):
                return (keys, .notSaved(problem))
            }
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

extension UserSettings {
    /// Sets each of `keys` as `other` has it.
    mutating func take(_ keys: some Sequence<Key>, from other: UserSettings) {
        for key in keys {
            switch key {
            case .units: units = other.units
            case .temperatureUnit: temperatureUnit = other.temperatureUnit
            case .windUnit: windUnit = other.windUnit
            case .clock: clock = other.clock
            case .theme: theme = other.theme
            case .mapStyle: mapStyle = other.mapStyle
            case .mouse: mouse = other.mouse
            case .defaultTab: defaultTab = other.defaultTab
            case .home: home = other.home
            }
        }
    }

    /// The value of `key` as the file writes it, without quotes ("imperial", "12", "true"); nil: not set.
    func text(of key: Key) -> String? {
        switch ConfigFile.value(key, in: self) {
        case .string(let text)?: text
        case .integer(let n)?: String(n)
        case .boolean(let on)?: on ? "true" : "false"
        case nil: nil
        }
    }
}
