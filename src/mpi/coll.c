/* src/mpi/coll.c - blocking collectives of libweft-mpi: from a ULT, each is its
 * nonblocking collective (MPI-3, PMPI_Ibarrier ...) plus the ULT-level wait of
 * progress.c; from anyone else, the blocking PMPI call (layer.h's pattern).
 *
 * The nonblocking form makes the same matching promise as the blocking one (collectives
 * on a communicator are matched in the order each rank starts them), so a program whose
 * ranks call the blocking collectives in one order stays correct.  MPI_IN_PLACE and the
 * error codes are MPI's own: the arguments are passed on unchanged. */
#include "mpi/layer.h"

static __attribute__((noinline)) int layer_barrier(MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Barrier(comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc = PMPI_Ibarrier(comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Barrier(MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Barrier(comm);
    return layer_barrier(comm);
}

static __attribute__((noinline)) int layer_bcast(void *buf, int count, MPI_Datatype dt, int root,
                                                 MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Bcast(buf, count, dt, root, comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc = PMPI_Ibcast(buf, count, dt, root, comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Bcast(buf, count, dt, root, comm);
    return layer_bcast(buf, count, dt, root, comm);
}

static __attribute__((noinline)) int layer_reduce(const void *sendbuf, void *recvbuf, int count,
                                                  MPI_Datatype dt, MPI_Op op, int root,
                                                  MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Reduce(sendbuf, recvbuf, count, dt, op, root, comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc = PMPI_Ireduce(sendbuf, recvbuf, count, dt, op, root, comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
               MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Reduce(sendbuf, recvbuf, count, dt, op, root, comm);
    return layer_reduce(sendbuf, recvbuf, count, dt, op, root, comm);
}

static __attribute__((noinline)) int layer_allreduce(const void *sendbuf, void *recvbuf, int count,
                                                     MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc = PMPI_Iallreduce(sendbuf, recvbuf, count, dt, op, comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                  MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm);
    return layer_allreduce(sendbuf, recvbuf, count, dt, op, comm);
}

static __attribute__((noinline)) int layer_alltoall(const void *sendbuf, int sendcount,
                                                    MPI_Datatype sendtype, void *recvbuf,
                                                    int recvcount, MPI_Datatype recvtype,
                                                    MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                         comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc = PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return layer_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

static __attribute__((noinline)) int layer_gather(const void *sendbuf, int sendcount,
                                                  MPI_Datatype sendtype, void *recvbuf,
                                                  int recvcount, MPI_Datatype recvtype, int root,
                                                  MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       root, comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc =
        PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return layer_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

static __attribute__((noinline)) int layer_gatherv(const void *sendbuf, int sendcount,
                                                   MPI_Datatype sendtype, void *recvbuf,
                                                   const int recvcounts[], const int displs[],
                                                   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                        recvtype, root, comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc = PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           root, comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            root, comm);
    return layer_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                         comm);
}

static __attribute__((noinline)) int layer_scatter(const void *sendbuf, int sendcount,
                                                   MPI_Datatype sendtype, void *recvbuf,
                                                   int recvcount, MPI_Datatype recvtype, int root,
                                                   MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                        root, comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc =
        PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return layer_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

static __attribute__((noinline)) int layer_scatterv(const void *sendbuf, const int sendcounts[],
                                                    const int displs[], MPI_Datatype sendtype,
                                                    void *recvbuf, int recvcount,
                                                    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                         recvtype, root, comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc = PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                            root, comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                             root, comm);
    return layer_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                          comm);
}

static __attribute__((noinline)) int layer_allgather(const void *sendbuf, int sendcount,
                                                     MPI_Datatype sendtype, void *recvbuf,
                                                     int recvcount, MPI_Datatype recvtype,
                                                     MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc = PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return layer_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

static __attribute__((noinline)) int layer_allgatherv(const void *sendbuf, int sendcount,
                                                      MPI_Datatype sendtype, void *recvbuf,
                                                      const int recvcounts[], const int displs[],
                                                      MPI_Datatype recvtype, MPI_Comm comm)
{
    enum wm_route r = wm_route();
    if (r <= WM_LOCKED) {
        int h = wm_enter(r);
        return wm_leave(h, PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                           displs, recvtype, comm));
    }
    MPI_Request q;
    int h = wm_lock();
    int rc = PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                              comm, &q);
    wm_unlock(h);
    return wm_finish(r, rc, &q);
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    if (wm_direct())
        return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                               comm);
    return layer_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm);
}
