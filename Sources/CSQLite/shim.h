#ifndef KB_CSQLITE_SHIM_H
#define KB_CSQLITE_SHIM_H

#include <sqlite3.h>

/* Static inline C wrappers for variadic SQLite APIs that Swift cannot call
   (sqlite3_config, sqlite3_db_config) belong here when they are needed. */

#endif
