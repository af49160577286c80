//This file was generated from (Academic) UPPAAL 4.1.24 (rev. 29A3ECA4E5FB0808), November 2019

/*
mutex
*/
A[] forall (i : id_t) forall (j : id_t) P(i).cs && P(j).cs imply i == j

/*
Process 1 can enter its critical section.
*/
E<> P(1).cs

/*
Two processes in their critical sections at once
*/
E<> P(1).cs and P(2).cs

/*
no_deadlock
*/
A[] not deadlock

// A process that requests the lock writes its id in time.
P(1).req --> P(1).wait

// While process 1 is in its critical section, the lock holds its id.
A[] P(1).cs imply id == 1

/*
How likely process 1 is in its critical section within 100 time units
*/
Pr[<=100](<> P(1).cs)
