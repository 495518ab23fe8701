import Foundation
import OpenCombineShim

struct HTTPPublisher<Client: HTTPClient>: Publisher {
    typealias Output = HTTPResponse
    typealias Failure = HTTPError

    let client: Client
    let request: HTTPRequest

    func receive<S: Subscriber>(subscriber: S) where S.Input == HTTPResponse, S.Failure == HTTPError {
        let subscription = HTTPSubscription(client: client, request: request, subscriber: subscriber)
        subscriber.receive(subscription: subscription)
    }
}

// unchecked: `lock` guards the subscriber, which OpenCombine hands over without a Sendable bound.
private final class HTTPSubscription<Client: HTTPClient, S: Subscriber>: Subscription, @unchecked Sendable
where S.Input == HTTPResponse, S.Failure == HTTPError {
    private let lock = NSLock()
    private let client: Client
    private let request: HTTPRequest
    private var subscriber: S?
    private var task: HTTPCancellable?
    private var started = false

    init(client: Client, request: HTTPRequest, subscriber: S) {
        self.client = client
        self.request = request
        self.subscriber = subscriber
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard demand > 0, !started, subscriber != nil else { lock.unlock(); return }
        started = true
        lock.unlock()
        // Through a protocol without the subscriber's type: a closure that kept it would capture
        // its metatype, which need not be Sendable.
        let task = client.send(request) { [weak finishing = self as any HTTPFinishing] result in finishing?.finish(result) }
        lock.lock()
        if subscriber == nil {
            lock.unlock()
            task.cancel()
        } else {
            self.task = task
            lock.unlock()
        }
    }

    func finish(_ result: Result<HTTPResponse, HTTPError>) {
        lock.lock()
        guard let subscriber else { lock.unlock(); return }
        self.subscriber = nil
        task = nil
        lock.unlock()
        switch result {
        case .success(let response):
            _ = subscriber.receive(response)
            subscriber.receive(completion: .finished)
        case .failure(let error):
            subscriber.receive(completion: .failure(error))
        }
    }

    func cancel() {
        lock.lock()
        let task = self.task
        self.task = nil
        subscriber = nil
        lock.unlock()
        task?.cancel()
    }
}

// MARK: - URLSession

/// The live client: one URLSession (FoundationNetworking on Linux) with a delegate that enforces

/// What a request's completion calls back: its subscription, whatever the subscriber's type.
private protocol HTTPFinishing: AnyObject, Sendable {
    func finish(_ result: Result<HTTPResponse, HTTPError>)
}

extension HTTPSubscription: HTTPFinishing {}
