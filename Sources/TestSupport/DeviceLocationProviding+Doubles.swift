import NimbusDomain

/// A device that is where the test says.
public struct FixedLocation: DeviceLocationProviding {
    public let location: DeviceLocation
    public var ignored: [IgnoredLocationSetting]

    public init(_ location: DeviceLocation, ignored: [IgnoredLocationSetting] = []) {
        self.location = location
        self.ignored = ignored
    }

    public func currentLocation() -> (location: DeviceLocation, ignored: [IgnoredLocationSetting]) { (location, ignored) }
}
