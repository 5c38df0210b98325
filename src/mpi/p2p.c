/* src/mpi/p2p.c - point-to-point calls and completions of libweft-mpi.
 *
 * Blocking calls (MPI_Send, MPI_Ssend, MPI_Recv, MPI_Sendrecv, MPI_Wait, MPI_Waitall,
 * MPI_Waitany, MPI_Probe) follow the pattern of layer.h: a ULT starts the nonblocking
 * form and waits in progress.c; anyone else goes to the blocking PMPI call.  The
 * nonblocking starts and tests (MPI_Isend, MPI_Issend, MPI_Irecv, MPI_Iprobe, MPI_Test*)
 * are interposed only for the serialising lock below MPI_THREAD_MULTIPLE (layer.h: nothing
 * while only the thread that initialised MPI calls it). */
#include "mpi/layer.h"

/* The lock for a nonblocking call (the layer's lockmode is WM_LK_NONE until it starts). */
static inline int nb_lock(void) { return wm_lock(); }
static inline int nb_unlock(int h, int rc)
{
    wm_unlock(h);
    return rc;
}

/* A small MPI_Send from a ULT goes straight to PMPI_Send: MPI sends a message that small
 * eagerly (buffered at the receiver, in every transport's eager limit, vader's 4 KiB
 * being the smallest of Open MPI's), so the call returns without waiting for a matching
 * receive and cannot hold the stream for another ULT; it only copies, or waits for room
 * in the transport while progressing it (the receiver drains it whatever its ULTs do).
 * That saves the request of PMPI_Isend and a test: ~400 of ~860 instructions per send
 * (docs/scaling.md).  WEFT_MPI_DIRECT_SEND sets the limit (bytes, default 1024; 0: every
 * send is PMPI_Isend + wait). */
static bool direct_send(int count, MPI_Datatype dt)
{
    int sz = 0;
    return wm_g.direct_send > 0 && count >= 0 && PMPI_Type_size(dt, &sz) == MPI_SUCCESS &&
           (long)count * sz <= wm_g.direct_send;
}

static __attribute__((noinline)) int layer_send(const void *buf, int count, MPI_Datatype dt,
                                                int dest, int tag, MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Send(buf, count, dt, dest, tag, comm));
    }
    int h = wm_lock(); /* PMPI_Type_size is an MPI call too: one hold for it and the send */
    if (direct_send(count, dt)) {
        int rc = PMPI_Send(buf, count, dt, dest, tag, comm);
        wm_unlock(h);
        wm_count_direct();
        return rc;
    }
    MPI_Request q;
    int rc = PMPI_Isend(buf, count, dt, dest, tag, comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Send(buf, count, dt, dest, tag, comm);
    return layer_send(buf, count, dt, dest, tag, comm);
}

static __attribute__((noinline)) int layer_ssend(const void *buf, int count, MPI_Datatype dt,
                                                 int dest, int tag, MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Ssend(buf, count, dt, dest, tag, comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc = PMPI_Issend(buf, count, dt, dest, tag, comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Ssend(buf, count, dt, dest, tag, comm);
    return layer_ssend(buf, count, dt, dest, tag, comm);
}

static __attribute__((noinline)) int layer_recv(void *buf, int count, MPI_Datatype dt, int source,
                                                int tag, MPI_Comm comm, MPI_Status *status)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Recv(buf, count, dt, source, tag, comm, status));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc = PMPI_Irecv(buf, count, dt, source, tag, comm, &q);
    return wm_start_wait_one(r, h, rc, &q, status); /* unlocks */
}

int MPI_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    if (wm_direct())
        return PMPI_Recv(buf, count, dt, source, tag, comm, status);
    return layer_recv(buf, count, dt, source, tag, comm, status);
}

static __attribute__((noinline)) int layer_sendrecv(const void *sendbuf, int sendcount,
                                                    MPI_Datatype sendtype, int dest, int sendtag,
                                                    void *recvbuf, int recvcount,
                                                    MPI_Datatype recvtype, int source, int recvtag,
                                                    MPI_Comm comm, MPI_Status *status)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                                         recvcount, recvtype, source, recvtag, comm, status));
    }
    MPI_Request q[2];
    MPI_Status st[2];
    int h = wm_lock();
    int rc = PMPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, &q[0]);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, &q[1]);
        if (rc != MPI_SUCCESS) { /* the send failed to start: take the receive back */
            PMPI_Cancel(&q[0]);
            PMPI_Wait(&q[0], MPI_STATUS_IGNORE);
        }
    }
    wm_unlock(h);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = wm_wait_all(r, 2, q, st);
    if (rc == MPI_ERR_IN_STATUS)
        rc = st[0].MPI_ERROR != MPI_SUCCESS ? st[0].MPI_ERROR : st[1].MPI_ERROR;
    if (status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        *status = st[0];
        status->MPI_ERROR = keep;
    }
    return rc;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status)
{
    if (wm_direct())
        return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
    return layer_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                          source, recvtag, comm, status);
}

/* The waits, hidden: weft_mpi_wait & co. call these directly, so that they park a ULT
 * even in a program where MPI's own MPI_Wait comes first in the symbol lookup (a call to
 * MPI_Wait from here would go through the PLT and could bind to it). */
static int wait1(MPI_Request *request, MPI_Status *status)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Wait(request, status));
    }
    if (!request) { /* MPI reports it (and the error handler runs as for PMPI_Wait) */
        int h = wm_lock();
        int rc = PMPI_Wait(request, status);
        wm_unlock(h);
        return rc;
    }
    return wm_wait_one(r, request, status);
}

static int waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Waitall(count, requests, statuses));
    }
    return wm_wait_all(r, count, requests, statuses);
}

static int waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Waitany(count, requests, index, status));
    }
    return wm_wait_any(r, count, requests, index, status);
}

static int probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Probe(source, tag, comm, status));
    }
    return wm_probe(r, source, tag, comm, status);
}

int MPI_Wait(MPI_Request *request, MPI_Status *status) { return wait1(request, status); }

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    return waitall(count, requests, statuses);
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    return waitany(count, requests, index, status);
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return probe(source, tag, comm, status);
}

/* ---- weft_mpi.h: the same waits, callable without interposition ---- */

int weft_mpi_wait(MPI_Request *request, MPI_Status *status) { return wait1(request, status); }

int weft_mpi_waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    return waitall(count, requests, statuses);
}

int weft_mpi_waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    return waitany(count, requests, index, status);
}

int weft_mpi_probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return probe(source, tag, comm, status);
}

/* ---- nonblocking calls: only the lock ---- */

static __attribute__((noinline)) int layer_isend(const void *buf, int count, MPI_Datatype dt,
                                                 int dest, int tag, MPI_Comm comm,
                                                 MPI_Request *request)
{
    int on = nb_lock();
    return nb_unlock(on, PMPI_Isend(buf, count, dt, dest, tag, comm, request));
}

int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    if (wm_direct())
        return PMPI_Isend(buf, count, dt, dest, tag, comm, request);
    return layer_isend(buf, count, dt, dest, tag, comm, request);
}

static __attribute__((noinline)) int layer_issend(const void *buf, int count, MPI_Datatype dt,
                                                  int dest, int tag, MPI_Comm comm,
                                                  MPI_Request *request)
{
    int on = nb_lock();
    return nb_unlock(on, PMPI_Issend(buf, count, dt, dest, tag, comm, request));
}

int MPI_Issend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    if (wm_direct())
        return PMPI_Issend(buf, count, dt, dest, tag, comm, request);
    return layer_issend(buf, count, dt, dest, tag, comm, request);
}

static __attribute__((noinline)) int layer_irecv(void *buf, int count, MPI_Datatype dt, int source,
                                                 int tag, MPI_Comm comm, MPI_Request *request)
{
    int on = nb_lock();
    return nb_unlock(on, PMPI_Irecv(buf, count, dt, source, tag, comm, request));
}

int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    if (wm_direct())
        return PMPI_Irecv(buf, count, dt, source, tag, comm, request);
    return layer_irecv(buf, count, dt, source, tag, comm, request);
}

static __attribute__((noinline)) int layer_iprobe(int source, int tag, MPI_Comm comm, int *flag,
                                                  MPI_Status *status)
{
    int on = nb_lock();
    return nb_unlock(on, PMPI_Iprobe(source, tag, comm, flag, status));
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    if (wm_direct())
        return PMPI_Iprobe(source, tag, comm, flag, status);
    return layer_iprobe(source, tag, comm, flag, status);
}

static __attribute__((noinline)) int layer_test(MPI_Request *request, int *flag, MPI_Status *status)
{
    int on = nb_lock();
    return nb_unlock(on, PMPI_Test(request, flag, status));
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (wm_direct())
        return PMPI_Test(request, flag, status);
    return layer_test(request, flag, status);
}

static __attribute__((noinline)) int layer_testall(int count, MPI_Request requests[], int *flag,
                                                   MPI_Status statuses[])
{
    int on = nb_lock();
    return nb_unlock(on, PMPI_Testall(count, requests, flag, statuses));
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    if (wm_direct())
        return PMPI_Testall(count, requests, flag, statuses);
    return layer_testall(count, requests, flag, statuses);
}

static __attribute__((noinline)) int layer_testany(int count, MPI_Request requests[], int *index,
                                                   int *flag, MPI_Status *status)
{
    int on = nb_lock();
    return nb_unlock(on, PMPI_Testany(count, requests, index, flag, status));
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    if (wm_direct())
        return PMPI_Testany(count, requests, index, flag, status);
    return layer_testany(count, requests, index, flag, status);
}

static __attribute__((noinline)) int layer_testsome(int incount, MPI_Request requests[],
                                                    int *outcount, int indices[],
                                                    MPI_Status statuses[])
{
    int on = nb_lock();
    return nb_unlock(on, PMPI_Testsome(incount, requests, outcount, indices, statuses));
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    if (wm_direct())
        return PMPI_Testsome(incount, requests, outcount, indices, statuses);
    return layer_testsome(incount, requests, outcount, indices, statuses);
}
