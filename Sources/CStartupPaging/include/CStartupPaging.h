#ifndef NIMBUS_CSTARTUPPAGING_H
#define NIMBUS_CSTARTUPPAGING_H

// How the program's own file is read from disk while it starts (see startup_paging.c).

/// Whether start-up paging is on: from before the Swift runtime starts until
/// nimbus_startup_paging_end().
int nimbus_startup_paging_active(void);

/// Ends start-up paging: the executable is read ahead again as usual.
void nimbus_startup_paging_end(void);

#endif
