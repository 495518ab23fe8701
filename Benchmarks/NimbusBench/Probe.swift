import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation

@MainActor
enum Probe {
    static func run() {
        let c = try! CityCatalog.bundled()
        let refs = c.search("").refs.prefix(20)
        let countries = CountryNames(locale: Locale(identifier: "en_US"))
        let l = L10n.bundled(.en)
        func t(_ label: String, _ f: () -> Void) {
            let t0 = NimbusBenchmark.now(); for _ in 0..<50 { f() }; print(label, String(format: "%.1f µs per 20 rows", (NimbusBenchmark.now() - t0) / 50 * 1e6))
        }
        let uc = SearchCitiesUseCase(repository: c)
        if CommandLine.arguments.contains("--fold") {
            let f0 = NimbusBenchmark.now()
            c.foldNamesOfLargestCities()
            print(String(format: "folding the names of the largest cities: %.1f ms", (NimbusBenchmark.now() - f0) * 1e3))
        }
        for pass in 1...2 {
            for q in ["s", "se", "seo"] {
                let m = c.search(q).refs.prefix(21)
                let t0 = NimbusBenchmark.now()
                for r in m { _ = uc.hit(r, query: q) }
                let t1 = NimbusBenchmark.now()
                for r in m { _ = countries.name(c.summary(r).countryCode) }
                let t2 = NimbusBenchmark.now()
                print("pass \(pass) \(q): hits \(Int((t1 - t0) * 1e6)) µs, countries \(Int((t2 - t1) * 1e6)) µs")
            }
        }
        t("city") { for r in refs { _ = c.city(r) } }
        t("matched empty") { for r in refs { _ = c.matchedName(r, query: "") } }
        t("matched s") { for r in refs { _ = c.matchedName(r, query: "s") } }
        t("matched 서") { for r in c.search("서").refs.prefix(20) { _ = c.matchedName(r, query: "서") } }
        t("country") { for r in refs { _ = countries.name(c.city(r).countryCode) } }
        t("number") { for r in refs { _ = l.number(Int(r.index) * 1000) } }
    }
}

import NimbusApp
import NimbusTerminal
import CombineSchedulers
import OpenCombineShim

@MainActor
enum RenderProbe {
    /// Keystrokes as the live app handles them: the key, the frame, the diff into a terminal.
    /// Work scheduled now runs at once, as on the main queue; timers never fire, as while someone types.
    static func frames() {
        let scheduler = AnySchedulerOf<DispatchQueue>(
            minimumTolerance: { .zero }, now: { DispatchQueue.SchedulerTimeType(.now()) },
            scheduleImmediately: { _, action in action() }, delayed: { _, _, _, _ in },
            interval: { _, _, _, _, _ in AnyCancellable {} })
        let container = try! AppDIContainer(configuration: .init(environment: [:], scheduler: scheduler))
        let app = AppCoordinator(container: container)
        app.start()
        let renderer = Renderer(backend: FakeTerminal(size: Size(cols: 80, rows: 24)))
        renderer.render(app.render(size: Size(cols: 80, rows: 24)))
        app.handle(.char("/"))
        var handle: [Double] = [], frame: [Double] = [], diff: [Double] = []
        // `--cold`: between keys, other work goes through the CPU caches, as between real keystrokes.
        let cold = CommandLine.arguments.contains("--cold")
        var junk = [UInt8](repeating: 1, count: 16 << 20)
        func evictCaches() {
            junk.withUnsafeMutableBufferPointer { buf in
                var i = 0
                while i < buf.count { buf[i] &+= 1; i += 64 }
            }
        }
        for round in 0..<(cold ? 4 : 30) {
            for word in NimbusBenchmark.typing {
                for ch in word {
                    if cold { evictCaches() }
                    let t0 = NimbusBenchmark.now()
                    app.handle(.char(ch))
                    let t1 = NimbusBenchmark.now()
                    let buffer = app.render(size: Size(cols: 80, rows: 24))
                    let t2 = NimbusBenchmark.now()
                    renderer.render(buffer)
                    let t3 = NimbusBenchmark.now()
                    if round > 0 { handle.append(t1 - t0); frame.append(t2 - t1); diff.append(t3 - t2) }
                }
                app.handle(.ctrl("u"))
                renderer.render(app.render(size: Size(cols: 80, rows: 24)))
            }
        }
        func us(_ xs: [Double]) -> String {
            String(format: "p50 %4.0f µs  p90 %4.0f µs", NimbusBenchmark.pct(xs, 50) * 1e6, NimbusBenchmark.pct(xs, 90) * 1e6)
        }
        print("per typed key (\(handle.count)): handle \(us(handle)) | frame \(us(frame)) | diff \(us(diff))")
        let total = zip(zip(handle, frame), diff).map { $0.0 + $0.1 + $1 }
        print("                  total \(us(total))")
    }

    static func run() {
        let container = try! AppDIContainer(configuration: .init(environment: [:], scheduler: DispatchQueue.immediate.eraseToAnyScheduler()))
        let app = AppCoordinator(container: container)
        app.start()
        let fake = FakeTerminal(size: Size(cols: 80, rows: 24))
        do {
            let c2 = try! AppDIContainer(configuration: .init(environment: [:], scheduler: DispatchQueue.immediate.eraseToAnyScheduler()))
            let a2 = AppCoordinator(container: c2)
            a2.start()
            _ = a2.render(size: Size(cols: 80, rows: 24))
            let w0 = NimbusBenchmark.now()
            if CommandLine.arguments.contains("--warm") { c2.warmUp.run(); c2.rehearseTyping() }
            print("warm-up \(Int((NimbusBenchmark.now() - w0) * 1e3)) ms")
            a2.handle(.char("/"))
            for ch in "seoul" {
                let t0 = NimbusBenchmark.now()
                a2.handle(.char(ch))
                let t1 = NimbusBenchmark.now()
                _ = a2.render(size: Size(cols: 80, rows: 24))
                let t2 = NimbusBenchmark.now()
                print("cold key \(ch): handle \(Int((t1 - t0) * 1e6)) µs, frame \(Int((t2 - t1) * 1e6)) µs")
            }
        }
        let renderer = Renderer(backend: fake)
        func t(_ label: String, _ f: () -> Void) {
            let t0 = NimbusBenchmark.now(); for _ in 0..<200 { f() }; print(label, String(format: "%.1f µs", (NimbusBenchmark.now() - t0) / 200 * 1e6))
        }
        t("render frame") { _ = app.render(size: Size(cols: 80, rows: 24)) }
        t("canvas only") { _ = Canvas(size: Size(cols: 80, rows: 24)) }
        let frame = app.render(size: Size(cols: 80, rows: 24))
        t("renderer same frame") { renderer.render(frame) }
        app.handle(.char("/"))
        var flip = false
        t("key + render + diff") { app.handle(.char(flip ? "s" : "x")); app.handle(.backspace); flip.toggle(); renderer.render(app.render(size: Size(cols: 80, rows: 24))) }
    }
}
