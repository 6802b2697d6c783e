create table ledger (id identity primary key, entry varchar(100) not null);
create table counter (total int not null);
insert into counter (total) values (0);
