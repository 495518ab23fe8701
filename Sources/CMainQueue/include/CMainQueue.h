#ifndef NIMBUS_CMAINQUEUE_H
#define NIMBUS_CMAINQUEUE_H

// The two functions of libdispatch through which a run loop other than dispatch_main() serves the
// main queue (Foundation's CFRunLoop uses them the same way). On Linux the handle is an eventfd that
// becomes readable when blocks are waiting on the main queue; the callback runs them, on the main
// thread. Nimbus's LiveRunner polls it beside the terminal.

/// The main queue's eventfd.
int _dispatch_get_main_queue_handle_4CF(void);

/// Runs the blocks waiting on the main queue; call on the main thread only.
void _dispatch_main_queue_callback_4CF(void *message);

#endif
