// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Nimbus",
    products: [
        .executable(name: "nimbus", targets: ["nimbus"]),
        .executable(name: "nimbus-bench", targets: ["NimbusBench"]),
        .executable(name: "warnings-peak", targets: ["WarningsPeak"]),
    ],
    dependencies: [
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
        .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .executableTarget(name: "nimbus", dependencies: ["NimbusApp"]),
        .target(name: "NimbusApp", dependencies: [
            "NimbusUI", "NimbusCurses", "NimbusData", "NimbusPresentation", "NimbusTerminal", "NimbusDomain", "CMainQueue",
            "NimbusBuildInfo", "NimbusResources",
            .product(name: "OpenCombineShim", package: "OpenCombine"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Every module NimbusUI imports, listed (NimbusDomain too, though NimbusPresentation brings it along).
        .target(name: "NimbusUI", dependencies: [
            "NimbusTerminal", "NimbusPresentation", "NimbusDomain",
            .product(name: "OpenCombineShim", package: "OpenCombine"),
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
        ]),
        .target(name: "NimbusTerminal", dependencies: ["NimbusText"]),
        // The one rule for outside text: what a terminal can print, and how wide (ScalarWidth).
        .target(name: "NimbusText"),
        .target(name: "NimbusCurses", dependencies: ["NimbusTerminal", "CNCursesw"]),
        .systemLibrary(name: "CNCursesw", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        .target(name: "NimbusLoop", dependencies: [
            .product(name: "OpenCombineShim", package: "OpenCombine"),
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
        ]),
        .target(name: "NimbusPresentation", dependencies: [
            "NimbusDomain", "NimbusLocalization", "NimbusLoop",
            .product(name: "OpenCombineShim", package: "OpenCombine"),
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
        ]),
        .target(name: "NimbusData", dependencies: [
            "NimbusDomain", "NimbusResources", "CLazyCurl", "CStartupPaging",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "TOMLKit", package: "TOMLKit"),
            .product(name: "OpenCombineShim", package: "OpenCombine"),
            // The retrying client's waits are timed by the app's scheduler.
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The program read from disk a page at a time until its first frame (see its source).
        .target(name: "CStartupPaging"),
        // libdispatch's hooks for serving the main queue from a run loop of our own.
        .target(name: "CMainQueue"),
        // libcurl's functions, forwarded to the library loaded on first use (see its header).
        .target(name: "CLazyCurl", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "NimbusDomain", dependencies: [.product(name: "OpenCombineShim", package: "OpenCombine")]),
        // The version, and the commit the binary is built from (written before every build by the plugin).
        .target(name: "NimbusBuildInfo", plugins: ["BuildInfoPlugin"]),
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        // The data files, found at run time beside the executable or where they were installed (see
        // NimbusResources.swift); SwiftPM copies them beside every executable it builds.
        .target(name: "NimbusResources", path: "Resources", exclude: ["SOURCES.md"], resources: [
            .copy("cities15000.bin"), .copy("landmask.bin"), .copy("borders.bin"), .copy("movies.sqlite"),
            .copy("meteoalarm-regions.tsv"), .copy("feregions.tsv"),
        ]),
        .target(name: "NimbusLocalization", dependencies: ["NimbusResources"], path: "Localization", resources: [.copy("en.lproj"), .copy("ko.lproj"), .copy("ja.lproj")]),
        // An HTTP/1.1 server on loopback with scripted (and hostile) answers: tests and the benchmark.
        .target(name: "LoopbackServer", path: "Sources/LoopbackServer"),
        // Assertions, the loopback server, and the test doubles beside the interfaces they stand in for.
        .target(name: "TestSupport", dependencies: [
            "NimbusTerminal", "LoopbackServer", "NimbusData", "NimbusDomain",
            .product(name: "OpenCombineShim", package: "OpenCombine"),
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
        ], path: "Sources/TestSupport"),
        // The whole app driven as a user would, with invariants checked after every action: used by the
        // property tests and by the benchmark's soak.
        .target(name: "AppExploration", dependencies: [
            "NimbusApp", "NimbusData", "NimbusDomain", "NimbusPresentation", "NimbusTerminal", "NimbusUI",
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "OpenCombineShim", package: "OpenCombine"),
        ]),
        // One city's warnings from files served on loopback, then the process's peak memory: the
        // tests run it in a process of its own for each warnings source at its size cap.
        .executableTarget(name: "WarningsPeak", dependencies: [
            "LoopbackServer", "NimbusData", "NimbusDomain", .product(name: "OpenCombineShim", package: "OpenCombine"),
        ], path: "Sources/WarningsPeak"),
        .executableTarget(name: "NimbusBench", dependencies: [
            "AppExploration", "LoopbackServer", "NimbusApp", "NimbusData", "NimbusDomain", "NimbusPresentation", "NimbusTerminal",
            "NimbusUI", "NimbusResources",
            .product(name: "OpenCombineShim", package: "OpenCombine"),
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
        ], path: "Benchmarks/NimbusBench"),
        .testTarget(name: "NimbusDomainTests", dependencies: [
            .product(name: "PropertyBased", package: "swift-property-based"),
            "NimbusDomain", "TestSupport",
            "NimbusData", // the system zone database, for sun times and normals in real zones
            .product(name: "OpenCombineShim", package: "OpenCombine"),
        ]),
        .testTarget(name: "NimbusDataTests", dependencies: [
            .product(name: "PropertyBased", package: "swift-property-based"),
            "NimbusData", "NimbusDomain", "NimbusResources", "TestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "OpenCombineShim", package: "OpenCombine"),
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "TOMLKit", package: "TOMLKit"),
        ], exclude: ["Fixtures"]),
        .testTarget(name: "NimbusPresentationTests", dependencies: [
            .product(name: "PropertyBased", package: "swift-property-based"),
            "NimbusPresentation", "NimbusLoop", "NimbusDomain", "TestSupport",
            "NimbusData", // the bundled catalogue, for the table of city names per language
            "NimbusTerminal", // display widths, for the local times' columns
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
            .product(name: "OpenCombineShim", package: "OpenCombine"),
        ]),
        .testTarget(name: "NimbusTerminalTests", dependencies: [
            .product(name: "PropertyBased", package: "swift-property-based"), "NimbusTerminal", "NimbusText", "TestSupport",
        ]),
        // Screens drawn on their own, with their view models on in-process doubles.
        .testTarget(name: "NimbusUITests", dependencies: [
            "NimbusUI", "NimbusPresentation", "NimbusData", "NimbusDomain", "NimbusTerminal", "TestSupport",
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
            .product(name: "OpenCombineShim", package: "OpenCombine"),
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "NimbusAppTests", dependencies: [
            .product(name: "PropertyBased", package: "swift-property-based"),
            "AppExploration", "NimbusApp", "NimbusData", "NimbusTerminal", "TestSupport",
            "NimbusDomain", "NimbusPresentation", "NimbusUI", "NimbusCurses",
            .product(name: "CombineSchedulers", package: "combine-schedulers"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ], exclude: ["__snapshots__"]),
    ],
    swiftLanguageModes: [.v6]
)

// The fuzz targets (Fuzz/, run by scripts/fuzz.sh): one libFuzzer binary over the parsers of outside
// bytes, declared only when NIMBUS_FUZZ is set, so that the normal build and tests never compile it.
if Context.environment["NIMBUS_FUZZ"] != nil {
    package.targets.append(.executableTarget(name: "NimbusFuzz", dependencies: [
        "NimbusApp", "NimbusData", "NimbusDomain", "NimbusTerminal", "NimbusText",
        .product(name: "TOMLKit", package: "TOMLKit"),
    ], path: "Fuzz/NimbusFuzz", swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
}
