import Foundation
import NimbusApp
import NimbusData
import CombineSchedulers

/// A throwaway home for a benchmark that runs the real app's container: data and cache folders of
/// its own, removed afterwards, and the live HTTP client and work queue the app uses.
struct BenchHome {
    let url: URL

    init(_ name: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-\(name)-bench-\(UUID().uuidString)")
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The app's container with this home and `environment` (servers, language, units) added.
    @MainActor
    func container(_ environment: [String: String]) -> Result<AppDIContainer, TodayBenchmark.Failure> {
        let base = [
            "HOME": url.path, "XDG_DATA_HOME": url.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": url.appendingPathComponent("cache").path,
            "NIMBUS_LANG": "en", "NIMBUS_UNITS": "metric",
        ]
        do {
            return .success(try AppDIContainer(configuration: .init(
                environment: base.merging(environment) { _, given in given },
                scheduler: DispatchQueue.main.eraseToAnyScheduler(), httpClient: LiveHTTPClient(),
                workScheduler: DispatchQueue(label: "nimbus.work", qos: .userInitiated).eraseToAnyScheduler())))
        } catch {
            return .failure(TodayBenchmark.Failure(message: "\(error)"))
        }
    }
}
