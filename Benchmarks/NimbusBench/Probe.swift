import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation

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

enum RenderProbe {
    static func frames() {
        let c2 = try! AppDIContainer(configuration: .init(environment: [:], scheduler: DispatchQueue.immediate.eraseToAnyScheduler()))
        let a2 = AppCoordinator(container: c2)
        a2.start()
        a2.handle(.char("/"))
        let t0 = NimbusBenchmark.now()
        var n = 0
        for _ in 0..<100 {
            for q in ["s", "se", "seo", "b", "be", "ber", "t", "to", "tok", "m", "mo", "mos"] {
                a2.handle(.ctrl("u"))
                for ch in q { a2.handle(.char(ch)) }
                _ = a2.render(size: Size(cols: 80, rows: 24))
                n += 1
            }
        }
        print("frames with new rows: \(Int((NimbusBenchmark.now() - t0) / Double(n) * 1e6)) µs each")
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
            if CommandLine.arguments.contains("--warm") { c2.warmUp() }
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
