import NimbusData
import NimbusDomain

extension SystemZoneDatabase {
    /// The system's zone database as the app finds it with no `TZDIR`: what the tests' formatters read.
    public static let forTests = SystemZoneDatabase(tzdir: nil)
}
