// Reading the program a page at a time until its first frame.
//
// From a cold page cache, every page of the executable that start-up touches is a disk read, and
// the kernel reads around each one: read_ahead_kb of the disk, 128 KB on many machines and 8 MB on
// others, where a start that touches a few dozen pages scattered over the 70 MB binary (the Swift
// runtime, Foundation, ICU, our code) read some 25 MB of it. madvise(MADV_RANDOM) on the
// executable's segments makes each of those faults read its own page only; after the first frame
// the segments go back to MADV_NORMAL, so later work reads ahead as before.
//
// The constructor runs before the Swift runtime's (priority 101 sorts first), right after the
// dynamic loader, whose own reads (symbols, relocations) it cannot change.
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include "CStartupPaging.h"

static volatile int active;

static int advise_executable(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    // The executable is the first object, the one without a name.
    if (info->dlpi_name != NULL && info->dlpi_name[0] != '\0') return 0;
    int advice = *(int *)data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD) continue;
        uintptr_t start = (uintptr_t)(info->dlpi_addr + segment->p_vaddr) & ~(uintptr_t)4095;
        uintptr_t end = (uintptr_t)(info->dlpi_addr + segment->p_vaddr + segment->p_filesz);
        if (end > start) (void)madvise((void *)start, end - start, advice);
    }
    return 1;
}

__attribute__((constructor(101))) static void nimbus_startup_paging_begin(void) {
    int advice = MADV_RANDOM;
    dl_iterate_phdr(advise_executable, &advice);
    active = 1;
}

int nimbus_startup_paging_active(void) { return active; }

void nimbus_startup_paging_end(void) {
    if (!active) return;
    active = 0;
    int advice = MADV_NORMAL;
    dl_iterate_phdr(advise_executable, &advice);
}
