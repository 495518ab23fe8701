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
        // A terminal that moves lines, as the live one does (the diff includes looking for rows to
        // move and pricing them), beside one that encodes the cells alone, on the same frames.
        let renderer = Renderer(backend: FakeTerminal(size: Size(cols: 80, rows: 24), movesLines: true))
        let cellsOnly = Renderer(backend: EncodingTerminal(FakeTerminal(size: Size(cols: 80, rows: 24))) { _ in })
        renderer.render(app.render(size: Size(cols: 80, rows: 24)))
        cellsOnly.render(app.render(size: Size(cols: 80, rows: 24)))
        app.handle(.char("/"))
        var handle: [Double] = [], frame: [Double] = [], diff: [Double] = [], diffCellsOnly: [Double] = [], plan: [Double] = []
        let costs = FrameEncoder(sequences: .xterm256Color).costs!
        var last = app.render(size: Size(cols: 80, rows: 24))
        var planned = 0
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
                    cellsOnly.render(buffer)
                    let t4 = NimbusBenchmark.now()
                    let moves = LineMoves.plan(from: last, to: buffer, costs: costs)
                    let t5 = NimbusBenchmark.now()
                    last = buffer
                    if !moves.moves.isEmpty { planned += 1 }
                    if round > 0 {
                        handle.append(t1 - t0); frame.append(t2 - t1); diff.append(t3 - t2); diffCellsOnly.append(t4 - t3); plan.append(t5 - t4)
                    }
                }
                app.handle(.ctrl("u"))
                renderer.render(app.render(size: Size(cols: 80, rows: 24)))
                cellsOnly.render(app.render(size: Size(cols: 80, rows: 24)))
                last = app.render(size: Size(cols: 80, rows: 24))
            }
        }
        // Scrolling: Down at the bottom of the list, each frame's rows moved.
        app.handle(.escape)
        for _ in 0..<25 {
            app.handle(.down)
            renderer.render(app.render(size: Size(cols: 80, rows: 24)))
            cellsOnly.render(app.render(size: Size(cols: 80, rows: 24)))
        }
        var scrollDiff: [Double] = [], scrollDiffCellsOnly: [Double] = []
        for _ in 0..<300 {
            app.handle(.down)
            let buffer = app.render(size: Size(cols: 80, rows: 24))
            let t0 = NimbusBenchmark.now()
            renderer.render(buffer)
            let t1 = NimbusBenchmark.now()
            cellsOnly.render(buffer)
            scrollDiff.append(t1 - t0)
            scrollDiffCellsOnly.append(NimbusBenchmark.now() - t1)
        }
        func us(_ xs: [Double]) -> String {
            String(format: "p50 %4.0f µs  p90 %4.0f µs", NimbusBenchmark.pct(xs, 50) * 1e6, NimbusBenchmark.pct(xs, 90) * 1e6)
        }
        print("per typed key (\(handle.count)): handle \(us(handle)) | frame \(us(frame)) | diff \(us(diff))")
        let total = zip(zip(handle, frame), diff).map { $0.0 + $0.1 + $1 }
        print("                  total \(us(total))")
        print("diff of a typed key, cells encoded without line moves: \(us(diffCellsOnly)) | LineMoves.plan alone \(us(plan)), moves planned for \(planned) keys")
        print("Down at the bottom of the list (\(scrollDiff.count)): diff with line moves \(us(scrollDiff)) | without \(us(scrollDiffCellsOnly))")
    }

    static func run() {
        let container = try! AppDIContainer(configuration: .init(environment: [:], scheduler: DispatchQueue.immediate.eraseToAnyScheduler()))
        let app = AppCoordinator(container: container)
        app.start()
        let fake = FakeTerminal(size: Size(cols: 80, rows: 24), movesLines: true)
        do {
            let c2 = try! AppDIContainer(configuration: .init(environment: [:], scheduler: DispatchQueue.immediate.eraseToAnyScheduler()))
            let a2 = AppCoordinator(container: c2)
            a2.start()
            _ = a2.render(size: Size(cols: 80, rows: 24))
            let w0 = NimbusBenchmark.now()
            if CommandLine.arguments.contains("--warm") { let rehearsal = c2.typingRehearsal(); rehearsal.openField(); c2.warmUp.run(); rehearsal.type() }
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
        // Scrolling: Down at the bottom of the list, the frame diffed with its rows moved (`LineMoves`).
        app.handle(.escape)
        for _ in 0..<30 { app.handle(.down) }
        renderer.render(app.render(size: Size(cols: 80, rows: 24)))
        var previous = app.render(size: Size(cols: 80, rows: 24))
        t("Down at the bottom: key + render + diff with line moves") {
            app.handle(.down)
            let next = app.render(size: Size(cols: 80, rows: 24))
            renderer.render(next)
            previous = next
        }
        let costs = FrameEncoder(sequences: .xterm256Color).costs!
        app.handle(.down)
        let next = app.render(size: Size(cols: 80, rows: 24))
        t("LineMoves.plan alone (a scrolled frame)") { _ = LineMoves.plan(from: previous, to: next, costs: costs) }
        t("LineMoves.plan alone (the same frame)") { _ = LineMoves.plan(from: next, to: next, costs: costs) }
    }
}
