import Foundation
import Synchronization
import NimbusDomain
@preconcurrency import OpenCombineShim

/// Where the user is, following the Home setting while the app runs: after Home is changed in the
/// settings, the next load of Today's places is found from the new Home, and `changes` says it moved.
///
/// `currentLocation()` is asked on the work queue; `replace` is called on the main thread.
final class HomeFollowingLocation: DeviceLocationProviding, @unchecked Sendable { // unchecked: `changed` is sent on the main thread only
    private let current: Mutex<any DeviceLocationProviding>
    private let changed = PassthroughSubject<Void, Never>()

    init(_ provider: any DeviceLocationProviding) {
        current = Mutex(provider)
    }

    func currentLocation() -> (location: DeviceLocation, ignored: [IgnoredLocationSetting]) {
        current.withLock { $0 }.currentLocation()
    }

    /// The provider for the settings as they are now (Home changed).
    func replace(_ provider: any DeviceLocationProviding) {
        current.withLock { $0 = provider }
        changed.send()
    }

    /// After each change of Home.
    var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }
}
