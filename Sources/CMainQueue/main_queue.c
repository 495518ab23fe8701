// Declarations only: the functions are libdispatch's (see include/CMainQueue.h).
#include "CMainQueue.h"
