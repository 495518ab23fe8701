import Foundation
import XCTest
@testable import NimbusData

final class NimbusDirectoriesTests: XCTestCase {
    private func paths(_ environment: [String: String]) -> [String] {
        let d = NimbusDirectories(environment: environment)
        return [d.data.path, d.cache.path, d.config.path, d.state.path]
    }

    func testXDGVariablesWhenSet() {
        XCTAssertEqual(paths(["XDG_DATA_HOME": "/x/data", "XDG_CACHE_HOME": "/x/cache", "XDG_CONFIG_HOME": "/x/config",
                              "XDG_STATE_HOME": "/x/state", "HOME": "/h"]),
                       ["/x/data/nimbus", "/x/cache/nimbus", "/x/config/nimbus", "/x/state/nimbus"])
    }

    func testHomeWhenUnset() {
        XCTAssertEqual(paths(["HOME": "/h"]),
                       ["/h/.local/share/nimbus", "/h/.cache/nimbus", "/h/.config/nimbus", "/h/.local/state/nimbus"])
    }

    func testRelativeAndEmptyValuesAreIgnored() {
        let home = ["/h/.local/share/nimbus", "/h/.cache/nimbus", "/h/.config/nimbus", "/h/.local/state/nimbus"]
        XCTAssertEqual(paths(["XDG_DATA_HOME": "data", "XDG_CACHE_HOME": "./cache", "XDG_CONFIG_HOME": "~/config",
                              "XDG_STATE_HOME": "state/", "HOME": "/h"]), home)
        XCTAssertEqual(paths(["XDG_DATA_HOME": "", "XDG_CACHE_HOME": "", "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "",
                              "HOME": "/h"]), home)
    }

    func testOneVariableMovesOnlyItsDirectory() {
        XCTAssertEqual(paths(["XDG_CACHE_HOME": "/c", "HOME": "/h"]),
                       ["/h/.local/share/nimbus", "/c/nimbus", "/h/.config/nimbus", "/h/.local/state/nimbus"])
    }

    func testTheAccountsHomeWhenHOMEIsUnsetOrEmpty() {
        let home = URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share/nimbus").path
        XCTAssertEqual(NimbusDirectories(environment: [:]).data.path, home)
        XCTAssertEqual(NimbusDirectories(environment: ["HOME": ""]).data.path, home)
    }

    func testEveryUserOfADirectoryTakesItFromHere() {
        let env = ["XDG_DATA_HOME": "/x/data", "XDG_CACHE_HOME": "/x/cache", "HOME": "/h"]
        let directories = NimbusDirectories(environment: env)
        XCTAssertEqual(UserDatabase.defaultDirectory(environment: env), directories.data)
        XCTAssertEqual(CityCatalog.largeTierURL(environment: env).deletingLastPathComponent().path, directories.data.path)
        XCTAssertEqual(WeatherCache.defaultDirectory(environment: env), directories.cache)
        XCTAssertEqual(TMDBMovieRepository.cacheDirectory(environment: env).path, "/x/cache/nimbus/tmdb")
    }
}
