import Foundation
import OpenCombineShim

/// How the last change of the settings file went.
public enum SettingsSave: Equatable, Sendable {
    /// Nothing was changed since the app started.
    case unchanged
    /// A change is being written.
    case saving
    case saved
    /// The change applies to this run but was not written: why, when the file says why (nil when
    /// writing failed, as in a folder that can't be written).
    case notSaved(SettingsProblem?)
}

/// The settings as they are now: every layer, what was wrong with the file, and the last save.
public struct SettingsContents: Equatable, Sendable {
    public var layers: SettingsLayers
    /// What was wrong with the file when it was read; while there is anything, it is never written.
    public var problems: [SettingsProblem]
    public var save: SettingsSave
    /// Where the file is (or goes).
    public var path: String

    public init(layers: SettingsLayers = SettingsLayers(), problems: [SettingsProblem] = [], save: SettingsSave = .unchanged,
                path: String = "") {
        self.layers = layers
        self.problems = problems
        self.save = save
        self.path = path
    }

    /// Each setting as it applies now (see `SettingsLayers.effective`).
    public var effective: UserSettings { layers.effective }
}

/// The user's settings: one store for the app, which every screen and the app itself follow.
public protocol SettingsRepository: AnyObject, Sendable {
    /// The settings now.
    var current: SettingsContents { get }
    /// The settings now when subscribed, then after every change (and when a save ends).
    var contents: AnyPublisher<SettingsContents, Never> { get }
    /// Applies `edit` at once, over the command line and the environment until the app quits; with
    /// `save`, writes the keys it changed into the file as well, off the caller's thread.
    func change(save: Bool, _ edit: @escaping @Sendable (inout UserSettings) -> Void)
}

/// Reads and changes the settings.
public struct SettingsUseCase: Sendable {
    private let repository: SettingsRepository
    public init(repository: SettingsRepository) { self.repository = repository }

    public var contents: AnyPublisher<SettingsContents, Never> { repository.contents }

    /// A change made in the settings screen: applied now and saved.
    public func change(_ edit: @escaping @Sendable (inout UserSettings) -> Void) {
        repository.change(save: true, edit)
    }

    /// A choice for this run only (`c` on a map picks the map style until the app quits).
    public func choose(_ edit: @escaping @Sendable (inout UserSettings) -> Void) {
        repository.change(save: false, edit)
    }
}
