import Glibc

/// State written on Avahi's event-loop thread and awaited, with a deadline, by the caller.
///
/// A pthread mutex and a condition variable on the monotonic clock: the module depends on
/// nothing beyond Glibc and Avahi, and a caller must block until Avahi answers or time runs out.
/// Unchecked Sendable: every access to `state` holds `mutex`.
final class WaitableState<State: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    init(_ initial: State) {
        state = initial
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// The current state.
    var value: State {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return state
    }

    /// Changes the state and wakes every waiter.
    func update(_ change: (inout State) -> Void) {
        pthread_mutex_lock(mutex)
        change(&state)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until `isDone` holds or `timeout` has passed; returns the state at that moment.
    func wait(timeout: Duration, until isDone: (State) -> Bool) -> State {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isDone(state) {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        return state
    }
}
