#ifndef KB_CSQLITE_SHIM_H
#define KB_CSQLITE_SHIM_H

#include <sqlite3.h>

/* Static inline C wrappers for variadic SQLite APIs that Swift cannot call
   (sqlite3_config, sqlite3_db_config) belong here when they are needed. */

/* sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on): whether SQLite keeps memory statistics, which takes a
   process-wide mutex at every allocation and free. Takes effect only before SQLite is initialised, that is
   before the process's first connection; SQLITE_MISUSE after. */
static inline int kb_sqlite3_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

#endif
